import { defineConfig } from 'vitest/config';

// One run and one report for the whole repository; each package is a project. The JSON
// report is what .ci/run counts.
export default defineConfig({
  test: {
    projects: ['shared', 'servers/*', 'test-harness'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: './test-results/vitest.json' },
  },
});
