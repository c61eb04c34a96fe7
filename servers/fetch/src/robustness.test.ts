import { describeServerRobustness, startHttpFixture } from '@mcp-reference/test-harness';
import { createFetchServer } from './server.js';
import { bin } from './test-support.js';

describeServerRobustness('fetch', {
  bin,
  async setup() {
    const site = await startHttpFixture({
      '/small': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Small</h1><p>A small page.</p></body></html>'),
      '/text': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('line of text\n'.repeat(2_000)),
      // 9 MB of elements with almost no text: seconds of CPU in a conversion worker (the
      // article is looked for four times, as Readability does when it finds too little),
      // which cancellation must stop.
      '/heavy': (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<html><body><p>start</p>${'<div><span>a</span></div>'.repeat(370_000)}</body></html>`),
    });
    const allow = `127.0.0.1:${site.port}`;
    return {
      args: ['--allow-host', allow, '--timeout-ms', '120000'],
      create: ({ maxResultBytes }) => createFetchServer({ allowHost: [allow], maxResultBytes, logLevel: 'error' }),
      quickCall: { name: 'fetch', arguments: { url: `${site.origin}/small` } },
      // 24 KB of text against a 2 KB budget.
      bigCall: { name: 'fetch', arguments: { url: `${site.origin}/text`, max_length: 100_000 }, maxResultBytes: 2_048 },
      slowCall: { name: 'fetch', arguments: { url: `${site.origin}/heavy` } },
      cleanup: site.close,
    };
  },
});
