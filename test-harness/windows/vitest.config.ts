import { defineConfig } from 'vitest/config';

// pnpm test:windows: the Windows smoke test alone (Wine, Windows Node), with its own
// report, which .ci/run adds to the main suite's.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.smoke.ts'],
    testTimeout: 180_000,
    hookTimeout: 900_000,
    fileParallelism: false,
    reporters: ['default', 'json'],
    outputFile: { json: '../../test-results/windows.json' },
  },
});
