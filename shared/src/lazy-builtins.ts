// Node modules that only some calls need, loaded by the first of them rather than at
// start-up, where each cost every server's cold start: node:crypto about 8 ms, and
// node:child_process about 5 ms, on a 2-core machine (test-harness's process-lifecycle test
// checks that a server answers initialize without them). `process.getBuiltinModule` (Node
// 20.16+), not `import()`: the bundled bin runs as a script, which has no dynamic import.

/** node:crypto, loaded on first use. */
export const nodeCrypto = () => process.getBuiltinModule('node:crypto');

/** node:child_process, loaded on first use. */
export const childProcess = () => process.getBuiltinModule('node:child_process');
