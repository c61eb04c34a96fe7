import path from 'node:path';
import { createServer, watchPath, type Logger, type McpServer } from '@mcp-reference/shared';
import type { NotesContext } from './context.js';
import { noteNameFromUri } from './lib/notes-uri.js';
import { NoteError, notePath } from './lib/notes.js';
import type { TemplateOptions } from './options.js';
import pkg from '../package.json' with { type: 'json' };

export interface CreateTemplateServerOptions extends Partial<TemplateOptions> {
  dirs: string[];
  pageSize?: number;
  /** The result budget (the robustness suite builds a server with a small one). */
  maxResultBytes?: number;
  logLevel?: 'debug' | 'info' | 'notice' | 'warning' | 'error';
  logger?: Logger;
}

/** A notes server over one directory: the example every new server starts from. */
export function createTemplateServer(options: CreateTemplateServerOptions): McpServer {
  const dir = path.resolve(options.dirs[0]);
  return createServer<NotesContext>({
    name: 'mcp-server-template',
    version: pkg.version,
    instructions: 'Notes are Markdown files. Read them as note:///NAME resources; search with search_notes.',
    // Loaded on first use, so their schemas are not built before `initialize` is answered.
    async tools() {
      const { readTools, writeTools } = await import('./tools/index.js');
      return options.readOnly ? readTools : [...readTools, ...writeTools];
    },
    templates: async () => (await import('./resources/index.js')).templates,
    prompts: async () => (await import('./prompts/index.js')).prompts,
    context: () => ({ dir }),
    // Only subscribed notes are watched, each by its own watcher.
    watch(uri, changed) {
      const name = noteNameFromUri(uri);
      if (name === undefined) return undefined;
      return watchPath(notePath(dir, name), changed);
    },
    // Note errors (a bad name) are the caller's to fix: they become messages, not crashes.
    describeError: (error) => (error instanceof NoteError ? error.message : undefined),
    useRoots: false,
    pageSize: options.pageSize,
    maxResultBytes: options.maxResultBytes,
    logLevel: options.logLevel,
    logger: options.logger,
  });
}
