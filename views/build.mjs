#!/usr/bin/env node
// Builds each view into one self-contained HTML document (script and CSS inlined, no
// external URL), then into a module whose default export is that document as a string:
// dist/<name>.html to look at, dist/<name>.js for the servers to import.
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';

export const VIEWS = [
  { name: 'sqlite-results', title: 'Query results' },
  { name: 'fetch-preview', title: 'Fetched page' },
  { name: 'filesystem-preview', title: 'File preview' },
  { name: 'git-log', title: 'Commit log' },
  { name: 'git-diff', title: 'Diff' },
];
const MAX_BYTES = 1024 * 1024;

const here = new URL('.', import.meta.url).pathname;
await rm(`${here}dist`, { recursive: true, force: true });
await mkdir(`${here}dist`, { recursive: true });
const theme = await readFile(`${here}src/common/theme.css`, 'utf8');

for (const { name, title } of VIEWS) {
  const { outputFiles } = await build({
    entryPoints: [`${here}src/${name}/main.ts`],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  // Inside a <script> element only "</script" and "<!--" could end or change it.
  const script = outputFiles[0].text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  const style = existsSync(`${here}src/${name}/style.css`) ? await readFile(`${here}src/${name}/style.css`, 'utf8') : '';
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${title}</title><style>${theme}${style}</style></head><body><div id="app"></div><script>${script}</script></body></html>`;
  const bytes = Buffer.byteLength(html);
  if (bytes > MAX_BYTES) throw new Error(`view ${name} is ${bytes} bytes, over the ${MAX_BYTES} a view may be`);
  if (/\b(src|href)\s*=\s*["']?https?:/i.test(html.replace(script, ''))) throw new Error(`view ${name} names an external URL`);
  await writeFile(`${here}dist/${name}.html`, html);
  // Brotli and base64 make the string a server bundle carries about a quarter of the
  // document: every start-up reads and scans the bundle, while the document is unpacked
  // only on the first resources/read.
  const packed = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes } }).toString('base64');
  await writeFile(
    `${here}dist/${name}.js`,
    `import { brotliDecompressSync } from 'node:zlib';\nconst packed = ${JSON.stringify(packed)};\n` +
      `/** The view's HTML document. */\nexport default function html() {\n  return brotliDecompressSync(Buffer.from(packed, 'base64')).toString('utf8');\n}\n`,
  );
  console.log(`${name}: ${(bytes / 1024).toFixed(0)} KB, ${(packed.length / 1024).toFixed(0)} KB packed in the server bundle`);
}
