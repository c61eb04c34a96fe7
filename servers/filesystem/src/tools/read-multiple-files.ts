import { z } from 'zod';
import { mapConcurrently } from '@mcp-reference/shared';
import { stat } from 'node:fs/promises';
import { defineTool } from '../context.js';
import { readWhole } from '../lib/read-text.js';
import { FsError } from '../lib/errors.js';
import { fileUri } from '../lib/file-uri.js';
import { formatSize } from '../lib/format-size.js';

/**
 * Most bytes of file content one call returns. The content travels twice (structured
 * and as text), and the response must stay under the client's 10 MiB message limit:
 * files past this budget get an entry that says to read them separately.
 */
export const MAX_MULTIPLE_READ_BYTES = 3 * 1024 * 1024;

/** Files opened at once: enough to overlap the waits, few enough to bound memory and descriptors. */
const CONCURRENCY = 8;

export const readMultipleFiles = defineTool({
  name: 'read_multiple_files',
  title: 'Read Multiple Files',
  description:
    "Read several text files at once. Each file's content comes with its path; a file that cannot be read gets an error entry and does not stop the others. " +
    `At most ${formatSize(MAX_MULTIPLE_READ_BYTES)} of content per call: files past that are listed with an error saying to read them separately. Only works within allowed directories.`,
  input: z.object({
    paths: z.array(z.string()).min(1).describe('Paths of the files to read'),
  }),
  output: z.object({
    files: z.array(
      z.object({
        path: z.string().describe('The path as requested'),
        content: z.string().optional(),
        error: z.string().optional(),
      }),
    ),
    omitted: z.number().int().optional().describe('Files left out because the response reached its size limit'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  whenTooLarge: 'Read fewer files per call, or the large ones with read_text_file and head, tail or a line range.',
  render: (out) =>
    out.files.map((f) => (f.error !== undefined ? `${f.path}: Error - ${f.error}` : `${f.path}:\n${f.content}\n`)).join('\n---\n') +
    (out.omitted ? `\n---\n(${out.omitted} files left out at the ${formatSize(MAX_MULTIPLE_READ_BYTES)} response limit: read them separately)` : ''),
  async handler({ paths }, ctx) {
    type Entry = { path: string; content?: string; error?: string };
    const entries: Entry[] = paths.map((path) => ({ path }));
    const files: (string | undefined)[] = new Array(paths.length);
    const sizes: number[] = new Array(paths.length).fill(0);
    const fail = (i: number, error: unknown) => {
      if (!(error instanceof FsError)) throw error;
      entries[i].error = error.message;
    };
    // Resolve and size every file first, then decide in request order which fit.
    await mapConcurrently(paths, CONCURRENCY, async (_, i) => {
      try {
        const file = await ctx.policy.resolveFile(paths[i]);
        const { size } = await stat(file);
        if (size > ctx.maxReadBytes) {
          throw new FsError('TOO_LARGE', `${size} bytes, above the ${ctx.maxReadBytes}-byte limit; use read_text_file with head, tail or a line range.`);
        }
        files[i] = file;
        sizes[i] = size;
      } catch (error) {
        fail(i, error);
      }
    });
    let budget = MAX_MULTIPLE_READ_BYTES;
    let omitted = 0;
    for (let i = 0; i < paths.length; i++) {
      if (files[i] === undefined) continue;
      if (sizes[i] > budget) {
        files[i] = undefined;
        omitted++;
        entries[i].error =
          `Not read: this response reached its ${formatSize(MAX_MULTIPLE_READ_BYTES)} limit. ` +
          (sizes[i] > MAX_MULTIPLE_READ_BYTES ? 'Read this file with read_text_file.' : 'Read it in another read_multiple_files call, or with read_text_file.');
        continue;
      }
      budget -= sizes[i];
    }
    const links: ReturnType<typeof ctx.link>[] = [];
    await mapConcurrently(paths, CONCURRENCY, async (_, i) => {
      const file = files[i];
      if (file === undefined) return;
      try {
        // The size may have grown since it was checked; a little slack, no more. The bytes
        // count against the server's budget of reads in flight, shared by every session.
        const max = Math.min(ctx.maxReadBytes, sizes[i] + 64 * 1024);
        const release = await ctx.readBudget.reserve(max);
        try {
          entries[i].content = await readWhole(file, max);
        } finally {
          release();
        }
        links.push(ctx.link(fileUri(file), { mimeType: 'text/plain' }));
      } catch (error) {
        fail(i, error);
      }
    });
    return ctx.result({ files: entries, ...(omitted ? { omitted } : {}) }, links);
  },
});
