import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderServerList, withServerList } from './packaging-docs.js';
import { repoRoot, serverPackages } from './packaging.js';

/**
 * Docs that cannot drift: the root README's server list is generated from the server
 * folders (`pnpm run docs` rewrites it, like each server's tables), and every server checks
 * its README tables with a readme.test.ts.
 */
describe('generated docs', () => {
  it('the root README lists exactly the server folders (run `pnpm run docs` when this fails)', () => {
    const file = path.join(repoRoot, 'README.md');
    const readme = readFileSync(file, 'utf8');
    const updated = withServerList(readme, renderServerList());
    expect(updated, 'README.md needs <!-- servers:start --> and <!-- servers:end --> markers').toBeDefined();
    if (process.env.UPDATE_DOCS === '1') {
      if (updated !== readme) writeFileSync(file, updated!);
      return;
    }
    expect(readme, 'the server list is stale: run `npx -y pnpm@10 run docs`').toBe(updated);
    for (const s of serverPackages()) expect(readme).toContain(`(servers/${s.folder})`);
  });

  it.each(serverPackages().map((s) => [s.folder, s] as const))('%s checks its README tables against its definitions', (_f, s) => {
    const test = path.join(s.dir, 'src', 'readme.test.ts');
    expect(existsSync(test), `servers/${s.folder}/src/readme.test.ts`).toBe(true);
    expect(readFileSync(test, 'utf8')).toContain('expectDocsTable(');
    expect(readFileSync(path.join(s.dir, 'README.md'), 'utf8')).toMatch(/<!-- docs-table:start -->[\s\S]*<!-- docs-table:end -->/);
  });
});
