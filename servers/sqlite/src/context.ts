import { definitionsFor } from '@mcp-reference/shared';
import type { Engine } from './lib/engine.js';
import type { QuickReader } from './lib/quick-reader.js';
import type { Schema } from './lib/schema.js';
import type { Insights } from './lib/insights.js';

/** What every handler of this server sees besides the base context. */
export interface SqliteContext {
  /** Runs statements in the engine's child processes, with the time limit. */
  engine: Engine;
  /** Answers bounded reads in the server process (undefined: ask the engine). */
  quick: QuickReader;
  /** The database's tables, views and indexes, read fresh. */
  schema(signal?: AbortSignal): Promise<Schema>;
  /** Insights appended by append_insight (all sessions), for memo://insights. */
  insights: Insights;
  /** Whether the write tools are on. */
  write: boolean;
  dbPath: string;
  /** Called after this server wrote, so subscriptions fire without waiting for the poll. */
  wrote(): void;
}

export const { defineTool, defineResource, defineResourceTemplate, definePrompt } = definitionsFor<SqliteContext>();
