// Cancellation of a conversion that several calls share (issue 21 item 15): one caller
// giving up must not fail the others, and when every caller has given up the conversion
// stops (its worker is terminated) instead of running on for nobody.
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpFixture, type HttpFixture } from '@mcp-reference/test-harness';
import { createConverter, type Converter } from './converter.js';
import { FetchError } from './errors.js';
import { createFetcher } from './fetcher.js';
import { createPageService, type PageService } from './page-service.js';
import { createUrlGuard } from './url-guard.js';

// About 4 MB of paragraphs: seconds of conversion in a worker.
const slowPage = `<html><head><title>Slow</title></head><body><article>${Array.from(
  { length: 60_000 },
  (_, i) => `<p>Paragraph ${i} has words, and more words, to be a real paragraph of prose.</p>`,
).join('')}</article></body></html>`;

let site: HttpFixture | undefined;
let service: PageService | undefined;
afterEach(async () => {
  await service?.close();
  await site?.close();
  service = site = undefined;
});

/** A page service over a real converter whose conversions' signals are recorded. */
async function setup(): Promise<{ url: string; signals: AbortSignal[]; converting: Promise<void> }> {
  site = await startHttpFixture({
    '/slow': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(slowPage),
  });
  const real = createConverter({ inlineBelowChars: 1000, maxWorkers: 1 });
  const signals: AbortSignal[] = [];
  let started!: () => void;
  const converting = new Promise<void>((resolve) => (started = resolve));
  const converter: Converter = {
    convert(input, options) {
      if (options.signal) signals.push(options.signal);
      started();
      return real.convert(input, options);
    },
    close: () => real.close(),
  };
  const guard = createUrlGuard({ allowHosts: [`127.0.0.1:${site.port}`] });
  const fetcher = createFetcher({ guard, ignoreRobotsTxt: true, timeoutMs: 60_000, maxBytes: 10 * 1024 * 1024 });
  service = createPageService({ fetcher, converter, timeoutMs: 60_000, pollIntervalMs: 60_000 });
  return { url: `${site.origin}/slow`, signals, converting };
}

const code = (error: unknown) => (error instanceof FetchError ? error.code : String(error));

describe('a conversion shared by several calls', () => {
  it('goes on for the others when one caller cancels', { timeout: 120_000 }, async () => {
    const { url, signals, converting } = await setup();
    const first = new AbortController();
    const second = new AbortController();
    const a = service!.get(url, { signal: first.signal });
    await converting;
    const b = service!.get(url, { signal: second.signal, preferCache: true });
    first.abort();
    expect(code(await a.catch((error) => error))).toBe('CANCELLED');
    const page = await b;
    expect(page.content).toContain('Paragraph 59999 has words');
    expect(signals).toHaveLength(1);
    expect(signals[0].aborted).toBe(false);
  });

  it('stops when every caller has cancelled, and the next call converts afresh', { timeout: 120_000 }, async () => {
    const { url, signals, converting } = await setup();
    const first = new AbortController();
    const second = new AbortController();
    const a = service!.get(url, { signal: first.signal });
    await converting;
    const b = service!.get(url, { signal: second.signal, preferCache: true });
    first.abort();
    expect(signals[0].aborted).toBe(false);
    second.abort();
    expect(code(await a.catch((error) => error))).toBe('CANCELLED');
    expect(code(await b.catch((error) => error))).toBe('CANCELLED');
    expect(signals[0].aborted).toBe(true);
    const again = await service!.get(url, { preferCache: true });
    expect(again.content).toContain('Paragraph 59999 has words');
    expect(signals).toHaveLength(2); // a new conversion, not the stopped one
    expect(signals[1].aborted).toBe(false);
  });
});
