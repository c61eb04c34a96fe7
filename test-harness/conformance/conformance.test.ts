// Every server under servers/ must pass the generic scenarios of both frozen requirement
// sets of the pinned MCP conformance suite (2025-11-25 and 2026-07-28) over Streamable
// HTTP; the fixture server servers/_conformance runs every scored scenario it implements.
// CI builds before testing, so a server without dist/cli.js is a failure, not a skip.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REVISIONS, formatTable, listServers, repoRoot, runConformance } from './conformance.js';

const root = repoRoot();
const servers = listServers(root);

describe('MCP conformance suite', () => {
  it('finds servers to test', () => {
    expect(servers.length).toBeGreaterThan(0);
  });

  for (const server of servers) {
    it(`${server} passes every applicable scenario`, { timeout: 5 * 60_000 }, async () => {
      const dir = join(root, 'servers', server);
      const cli = join(dir, 'dist', 'cli.js');
      if (!existsSync(cli)) {
        throw new Error(`${cli} is missing: run \`pnpm build\` before the conformance test`);
      }
      const rows = await runConformance(dir);
      const table = formatTable(server, rows);
      console.log(table);
      const failed = rows.filter((r) => r.status === 'FAIL');
      expect(failed, table).toEqual([]);
      // Each requirement set ran, at its own wire version.
      for (const revision of REVISIONS) expect(rows.some((r) => r.status === 'PASS' && r.scenario.startsWith(`${revision} `)), table).toBe(true);
    });
  }
});
