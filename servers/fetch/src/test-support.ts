// Helpers shared by the server-level test files. Not part of the bundle: only cli.ts is bundled.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openToolSession, type ClientOptions, type ToolSession } from '@mcp-reference/test-harness';
import { createFetchServer, type CreateFetchServerOptions } from './server.js';

export { textOf, type ToolResult } from '@mcp-reference/test-harness';

export const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

export type Session = ToolSession<ReturnType<typeof createFetchServer>>;

/** A factory-built server with a real in-memory client. Close it after the test. */
export function open(options: CreateFetchServerOptions = {}, client: ClientOptions = {}): Promise<Session> {
  return openToolSession(createFetchServer({ logLevel: 'error', ...options }), client);
}

/** A page shaped like a real article: navigation, cookie banner, scripts, styles, footer. */
export function articlePage(title: string, paragraphs: string[]): string {
  return `<!doctype html><html><head><title>${title}</title>
<style>body { color: #333 } .secret-style { display: none }</style>
<script>window.trackingSecret = "SCRIPT-CONTENT";</script></head>
<body>
<header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">NAV-LINK-SPORT</a></nav></header>
<div id="cookie-banner" class="cookie-consent">We use cookies. COOKIE-BANNER-TEXT <button>Accept</button></div>
<main><article>
<h1>${title}</h1>
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
<h2>Details</h2>
<ul><li>first item</li><li>second item</li></ul>
<pre><code class="language-js">const answer = 42;</code></pre>
<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody><tr><td>alpha</td><td>1</td></tr></tbody></table>
<p>Read <a href="/related">the related story</a>.</p>
</article></main>
<aside>ASIDE-PROMO</aside>
<footer><a href="/privacy">FOOTER-PRIVACY</a> Copyright</footer>
<script>console.log("INLINE-SCRIPT-2")</script>
</body></html>`;
}

export function sentences(count: number, seed = 'Sentence'): string[] {
  return Array.from(
    { length: count },
    (_, i) => `${seed} number ${i} of the article explains something important about the subject in plenty of words, so that it reads like prose.`,
  );
}
