import { mkdir, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('./fixture-server.ts', import.meta.url));

/**
 * Bundles `fixture-server.ts` (a small server process for transport tests) into a temp
 * directory, once per process, and returns the path of the bundle.
 */
export function ensureFixtureBin(): Promise<string> {
  // Built afresh by each test process, so it always has the current source.
  return (built ??= bundle());
}

let built: Promise<string> | undefined;

async function bundle(): Promise<string> {
  const dir = path.join(tmpdir(), 'mcp-reference-fixture-bin');
  const out = path.join(dir, `fixture-${process.pid}-${Date.now()}.mjs`);
  await mkdir(dir, { recursive: true });
  const { build } = await import('esbuild');
  const temp = `${out}.${Math.random().toString(36).slice(2)}.tmp.mjs`;
  await build({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: temp,
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  await rename(temp, out);
  return out;
}
