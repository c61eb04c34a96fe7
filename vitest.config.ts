import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// One run and one report for the whole repository; each package is a project. Projects
// named as folders would not inherit the timeouts below (vitest 4), so each is an inline
// project that extends this config. The JSON report is what .ci/run counts.
const here = dirname(fileURLToPath(import.meta.url));
const servers = readdirSync(join(here, 'servers'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
const packages = ['shared', ...servers.map((entry) => `servers/${entry.name}`), 'test-harness', 'views'];

const nameOf = (root: string) => JSON.parse(readFileSync(join(here, root, 'package.json'), 'utf8')).name as string;

// In CI on Linux the filesystem suites run a second time the way macOS and Windows run
// them: without /proc/self/fd (MCP_FS_NO_PROC=1, read in servers/filesystem/src/lib/proc-fd.ts),
// so the path-and-inode fallbacks are tested. Locally: CI=1 npx vitest run servers/filesystem.
const noProc = process.env.CI && process.platform === 'linux'
  ? [{ extends: true, test: { root: join(here, 'servers/filesystem'), name: `${nameOf('servers/filesystem')} (no /proc)`, env: { MCP_FS_NO_PROC: '1' } } }]
  : [];

export default defineConfig({
  test: {
    projects: [...packages.map((root) => ({ extends: true, test: { root: join(here, root), name: nameOf(root) } })), ...noProc],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: './test-results/vitest.json' },
  },
});
