export * from './types.js';
export * from './definitions.js';
export { createServer, type McpServer, type ServerConfig, type SessionInfo } from './server.js';
export type { ServerSession } from './session.js';
export { describeServer, type ServerDescription, type ToolDescriptor, type PromptDescriptor } from './describe.js';
export { ToolError, ProtocolError, ErrorCodes, invalidParams, resourceNotFound, errorMessage } from './errors.js';
export {
  DEFAULT_PAGE_SIZE,
  encodeCursor,
  decodeCursor,
  paginateArray,
  paginateStream,
  paginateStreams,
  itemsAfter,
  type Page,
} from './pagination.js';
export { narrowScopes, isWithinPath, rootPaths, directorySet, mapConcurrently, type DirectorySet } from './roots.js';
export { createStderrLogger, silentLogger, isLogLevel, levelAtLeast, type Logger } from './logging.js';
export { capCompletions, filterByPrefix, MAX_COMPLETIONS, type CompletionAnswer } from './completions.js';
export {
  structuredResult,
  errorResult,
  resourceLink,
  embeddedResource,
  textContents,
  blobContents,
  renderJson,
} from './results.js';
export { DEFAULT_MAX_RESULT_BYTES, jsonBytes, describeBytes } from './result-budget.js';
export { RawJson } from './raw-json.js';
export { toJsonSchema, describeZodError, type JsonSchema } from './json-schema.js';
export { watchPath, processWatchRegistry, createWatchRegistry, type WatchRegistry, type WatchPathOptions } from './watch-path.js';
export { runInWorker, type WorkerTask, type RunInWorkerOptions } from './worker.js';
export { createSubscriptionHub, type SubscriptionHub } from './subscriptions.js';
export { runCli, parseArgs, helpText, commonOptions, UsageError, type CliSpec, type ParsedOptions, type CommonOptions } from './cli.js';
export { renderDocsTable } from './docs-table.js';
export {
  defineView,
  rendersViews,
  uiCapability,
  UI_EXTENSION_ID,
  VIEW_MIME_TYPE,
  VIEW_HANDLE_META,
  type ViewDefinition,
  type ViewUri,
  type Visibility,
  type ViewCsp,
  type ViewPermissions,
} from './views.js';
