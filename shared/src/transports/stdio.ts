import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpServer } from '../server.js';
import type { Logger } from '../logging.js';
import { onShutdownSignal } from './shutdown.js';

/**
 * Serves one client over stdin/stdout. The process ends cleanly when the client closes
 * stdin or on SIGINT/SIGTERM, so no orphaned server lingers after Claude Desktop quits.
 */
export async function serveStdio(server: McpServer, logger: Logger): Promise<{ close(): Promise<void> }> {
  const transport = new StdioServerTransport();
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      logger.log('debug', 'shutting down');
      // A client that writes its last request and closes stdin still gets the answer.
      await server.drain(5_000);
      await new Promise((resolve) => setImmediate(resolve));
      await server.close().catch(() => undefined);
    })());
  const disposeSignals = onShutdownSignal(async () => {
    await close();
    process.exit(0);
  });
  // On stdin close, answer what is in flight, release watchers and let the process end by
  // itself (stdout to a pipe is flushed asynchronously; exiting at once could cut the
  // last answer). A handle that outlives that is cut after a second.
  const endOfInput = () =>
    void close().then(() => setTimeout(() => process.exit(0), 1_000).unref());
  process.stdin.once('end', endOfInput);
  process.stdin.once('close', endOfInput);
  await server.connect(transport, { sessionId: 'stdio' });
  logger.log('info', `${server.name} ${server.version} serving on stdio`);
  return {
    async close() {
      disposeSignals();
      await close();
    },
  };
}
