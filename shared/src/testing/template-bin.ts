import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const templateDir = fileURLToPath(new URL('../../../servers/_template/', import.meta.url));

/** The bundled template server (`servers/_template/dist/cli.js`), the bin tests spawn. */
export const templateBin = path.join(templateDir, 'dist', 'cli.js');

/**
 * Builds the template bin when it is missing (a fresh checkout where `pnpm build` has not
 * run). Test files run in parallel, so a lock directory keeps two of them from bundling
 * at once: the bundler empties dist/ first.
 */
export async function ensureTemplateBin(): Promise<string> {
  if (existsSync(templateBin)) return templateBin;
  const lock = path.join(tmpdir(), 'mcp-reference-template-bin.lock');
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`gave up waiting for ${lock}; remove it if stale`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    if (!existsSync(templateBin)) {
      await promisify(execFile)(process.execPath, [path.join(templateDir, '../../scripts/bundle.mjs'), 'server'], {
        cwd: templateDir,
      });
    }
  } finally {
    await rmdir(lock);
  }
  return templateBin;
}
