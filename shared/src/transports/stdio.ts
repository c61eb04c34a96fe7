import type { McpServer } from '../server.js';
import type { Logger } from '../logging.js';
import { onShutdownSignal } from './shutdown.js';
import { LineTransport } from './stdio-transport.js';

/** After stdin closes, calls in flight get this long to answer before they are aborted. */
const DRAIN_MS = 1_500;
/** ...and the process is gone this long after stdin closed, whatever still runs. */
const EXIT_MS = 2_500;

/**
 * Serves one client over stdin/stdout. The process ends cleanly when the client closes
 * stdin (within 3 s, even with a call still running) or on SIGINT/SIGTERM, so no
 * orphaned server lingers after Claude Desktop quits.
 */
export async function serveStdio(server: McpServer, logger: Logger): Promise<{ close(): Promise<void> }> {
  const transport = new LineTransport(process.stdin, process.stdout);
  transport.onerror = (error) => logger.log('debug', `stdio: ${error.message}`);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      logger.log('debug', 'shutting down');
      // A client that writes its last request and closes stdin still gets the answer,
      // if it comes soon; closing the server then aborts ctx.signal of what still runs.
      await server.drain(DRAIN_MS);
      await new Promise((resolve) => setImmediate(resolve));
      await server.close().catch(() => undefined);
    })());
  // Why the process stops is logged (info): the first thing to look for in a client's log
  // of a server that went away.
  const disposeSignals = onShutdownSignal(async (signal) => {
    logger.log('info', `stopping on ${signal}`);
    await close();
    process.exit(0);
  });
  // On stdin close, answer what is in flight, release watchers and let the process end by
  // itself (stdout to a pipe is flushed asynchronously; exiting at once could cut the
  // last answer). A handle that outlives that (a worker, a timer) is cut by the exit timer,
  // which names what was still open: each is a resource something forgot to release.
  let ended = false;
  const endOfInput = (why: string) => {
    if (ended) return;
    ended = true;
    logger.log('info', `stopping: ${why}`);
    setTimeout(() => {
      logger.log('warning', `exiting ${EXIT_MS} ms after the end of input with work still open: ${stillOpen().join(', ')}`);
      process.exit(0);
    }, EXIT_MS).unref();
    void close();
  };
  process.stdin.once('end', () => endOfInput('the client closed stdin'));
  process.stdin.once('close', () => endOfInput('the client closed stdin'));
  // A client that dies leaves EPIPE on stdout: the transport closes, and so do we.
  transport.whenClosed = () => {
    if (!closing) endOfInput('stdout is closed (the client is gone)');
  };
  await server.connect(transport, { sessionId: 'stdio' });
  logger.log('info', `${server.name} ${server.version} serving on stdio`);
  return {
    async close() {
      disposeSignals();
      await close();
    },
  };
}

/**
 * What keeps the process alive, by kind and count ("PipeWrap x2, Timeout"), the standard
 * streams included; the exit timer that asks is running, so it is not among them.
 */
function stillOpen(): string[] {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => (count === 1 ? kind : `${kind} x${count}`));
}
