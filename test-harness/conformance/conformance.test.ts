// Every server under servers/ must pass every applicable scenario of the pinned MCP
// conformance suite over Streamable HTTP. CI builds before testing, so a server without
// dist/cli.js is a failure, not a skip.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatTable, listServers, repoRoot, runConformance } from './conformance.js';

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
      const failed = rows.filter((r) => r.status === 'FAIL');
      expect(failed, formatTable(server, rows)).toEqual([]);
      expect(rows.some((r) => r.status === 'PASS')).toBe(true);
    });
  }
});
