import { isMainThread, workerData } from 'node:worker_threads';
import { runCli } from '@mcp-reference/shared';
import { createFetchServer } from './server.js';
import { fetchOptions } from './options.js';
import { CONVERTER_WORKER, serveConversions } from './lib/converter.js';
import pkg from '../package.json' with { type: 'json' };

// The bundled bin is also the page-conversion worker (see lib/converter.ts): started on a
// worker thread with the marker, it converts pages instead of serving MCP.
if (!isMainThread && (workerData as Record<string, unknown> | null)?.[CONVERTER_WORKER]) {
  serveConversions();
} else {
  void runCli(
    {
      name: 'mcp-server-fetch',
      version: pkg.version,
      description: pkg.description,
      options: fetchOptions,
      epilog:
        'Private, loopback and link-local addresses are refused unless named by --allow-host.\n' +
        'Example: mcp-server-fetch --allow-host 127.0.0.1:8080 --timeout-ms 10000',
    },
    (options, logger) =>
      createFetchServer({
        ...options,
        // Only the bundled file can start itself as a worker; from source, the converter
        // loads the libraries by path instead.
        converterEntry: import.meta.url.endsWith('.js') ? new URL(import.meta.url) : undefined,
        logLevel: options.logLevel as 'info',
        logger,
      }),
  );
}
