import { describeServerRobustness, startHttpFixture, textOfEveryWidth, type CallAnswer } from '@mcp-reference/test-harness';
import { createFetchServer } from './server.js';
import { bin } from './test-support.js';

const PIECES = textOfEveryWidth(60_000);

describeServerRobustness('fetch', {
  bin,
  async setup() {
    const site = await startHttpFixture({
      '/pieces': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(PIECES),
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
      // A plain-text page in pieces of 1,000 characters (one fetch, then the cache): the pieces are the page.
      continuations: [
        {
          label: 'a 60 KB text page in pieces of 1,000 characters',
          create: () => createFetchServer({ allowHost: [allow], logLevel: 'error' }),
          first: { name: 'fetch', arguments: { url: `${site.origin}/pieces`, max_length: 1_000 } },
          next: (answer: CallAnswer) => {
            const next = answer.structuredContent?.next_start_index as number | null;
            return next === null ? undefined : { name: 'fetch', arguments: { url: `${site.origin}/pieces`, max_length: 1_000, start_index: next } };
          },
          piece: (answer: CallAnswer) => String(answer.structuredContent?.content),
          whole: () => PIECES,
        },
      ],
      cleanup: site.close,
    };
  },
});
