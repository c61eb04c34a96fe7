export * from './clients.js';
export * from './contract.js';
export { describeServerRobustness, type RobustnessFixture, type RobustnessOptions, type ToolCall } from './robustness.js';
export * from './template-files.js';
export { makeTempTree, manyFiles, type TempTree, type TreeEntry } from './fixtures/temp-tree.js';
export { makeGitRepo, type GitRepo } from './fixtures/git-repo.js';
export { makeSqliteDb, type SqliteFixture } from './fixtures/sqlite-db.js';
export { startHttpFixture, type HttpFixture, type Route } from './fixtures/http-server.js';
export { expectDocsTable } from './docs-table.js';
