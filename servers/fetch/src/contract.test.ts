import { describeServerContract, startHttpFixture } from '@mcp-reference/test-harness';
import { createFetchServer } from './server.js';
import { bin } from './test-support.js';

describeServerContract('fetch', {
  bin,
  async setup() {
    const versions = new Map<string, number>();
    const site = await startHttpFixture();
    const pages = Array.from({ length: 8 }, (_, i) => `/page-${i + 1}`);
    for (const path of pages) {
      versions.set(path, 1);
      site.route(path, (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<html><head><title>${path}</title></head><body><h1>${path}</h1><p>Version ${versions.get(path)} of ${path}.</p></body></html>`),
      );
    }
    const urls = pages.map((path) => `${site.origin}${path}`);
    const options = { allowHost: [`127.0.0.1:${site.port}`], page: urls, pollIntervalMs: 200 };
    return {
      args: ['--allow-host', `127.0.0.1:${site.port}`, '--poll-interval-ms', '200', ...urls.flatMap((url) => ['--page', url])],
      create: ({ pageSize }) => createFetchServer({ ...options, pageSize, logLevel: 'error' }),
      pageSize: 5,
      linkingCall: { name: 'fetch', arguments: { url: urls[0] } },
      completion: {
        ref: { type: 'ref/resource', uri: 'fetch://page/{+url}' },
        argument: { name: 'url', value: `${site.origin}/page-` },
        expect: urls[2],
      },
      subscription: {
        uri: `fetch://page/${urls[1]}`,
        change: async () => void versions.set('/page-2', 2),
      },
      cleanup: site.close,
    };
  },
});
