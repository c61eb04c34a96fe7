// The base's helpers that load no MCP SDK. Domain code (a server's src/lib/) imports them
// from here, `@mcp-reference/shared/core`, never from the main entry, which loads the SDK.
export { narrowScopes, isWithinPath, rootPaths, directorySet, mapConcurrently, type DirectorySet } from './roots.js';
export { childProcessSlots, createSlots, type Slots } from './slots.js';
export { runInWorker, type WorkerTask, type RunInWorkerOptions } from './worker.js';
export { openWorkerChannel, type WorkerChannel, type WorkerChannelOptions } from './worker-channel.js';
export { re2jsSource, loadRE2JS, type RE2JSClass } from './re2js.js';
export { ToolError } from './errors.js';
export { RawJson } from './raw-json.js';
export { nodeCrypto, childProcess } from './lazy-builtins.js';
export type { Disposer, Root } from './types.js';
export { characterBoundary, characterLength, codePointBoundary, codePointLength } from './character-boundary.js';
export { readOwnFileSync, type OwnFileOptions, type OwnFileRead } from './read-own-file.js';
