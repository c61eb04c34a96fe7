import { defineConfig } from 'vitest/config';

// One run and one report for the whole repository; each package is a project.
export default defineConfig({
  test: {
    projects: ['shared', 'servers/*', 'test-harness'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
