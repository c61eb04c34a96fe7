import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import { renderDocsTable, type ServerDescription } from '@mcp-reference/shared';

const MARKERS = /(<!-- docs-table:start -->\n)([\s\S]*?)(<!-- docs-table:end -->)/;

/**
 * Checks that a README's tool/resource/prompt tables match the definitions. With
 * UPDATE_DOCS=1 (`pnpm run docs`) it rewrites them instead.
 */
export function expectDocsTable(readmePath: string | URL, description: ServerDescription): void {
  const readme = readFileSync(readmePath, 'utf8');
  const match = MARKERS.exec(readme);
  expect(match, 'README needs <!-- docs-table:start --> and <!-- docs-table:end --> markers').not.toBeNull();
  const table = renderDocsTable(description);
  if (process.env.UPDATE_DOCS === '1') {
    writeFileSync(readmePath, readme.replace(MARKERS, (_all, start, _old, end) => `${start}${table}${end}`));
    return;
  }
  expect(match![2], 'the README tables are stale: run `pnpm run docs`').toBe(table);
}
