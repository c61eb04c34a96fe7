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

export default defineConfig({
  test: {
    projects: packages.map((root) => ({
      extends: true,
      test: { root: join(here, root), name: JSON.parse(readFileSync(join(here, root, 'package.json'), 'utf8')).name as string },
    })),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: './test-results/vitest.json' },
  },
});
