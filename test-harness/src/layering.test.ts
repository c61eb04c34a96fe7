// The bench and the demo reach a server through its MCP interface (spawned dist/cli.js) or
// through what its package entry (src/server.ts) exports and documents: never through its
// internals (src/lib/, tools, resources), whose names and shapes change without notice.
// The fetch package's test corpus and its scoring (src/corpus/) are shared test data, not
// server code, so the bench reads them too.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../conformance/conformance.js';

const ALLOWED = [/^servers\/[^/]+\/src\/server\.js$/, /^servers\/fetch\/src\/corpus\/[^/]+\.js$/];

function serverImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from\s+['"](?:\.\.\/)+(servers\/[^'"]+)['"]/g)].map((m) => m[1]);
}

describe('layering', () => {
  for (const folder of ['bench', 'demo']) {
    it(`test-harness/${folder} imports no server internals`, () => {
      const dir = join(repoRoot(), 'test-harness', folder);
      const offending = readdirSync(dir)
        .filter((name) => name.endsWith('.ts'))
        .flatMap((name) => serverImports(join(dir, name)).map((target) => `${folder}/${name} -> ${target}`))
        .filter((line) => !ALLOWED.some((ok) => ok.test(line.split(' -> ')[1])));
      expect(offending).toEqual([]);
    });
  }
});
