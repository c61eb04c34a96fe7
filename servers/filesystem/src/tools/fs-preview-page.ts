import { z } from 'zod';
import { defineTool } from '../context.js';
import { readLineRange } from '../lib/read-text.js';
import { MAX_RESPONSE_TEXT_BYTES } from './read-text-file.js';

const PAGE_LINES = 500;

/**
 * The preview view's pager (app-only: hosts show it to the view, not to the model): 500
 * lines of a text file from a line offset. The path goes through the same policy as
 * read_text_file (allowed directories, roots, symlinks resolved), with the same size limits.
 */
export const fsPreviewPage = defineTool({
  name: 'fs_preview_page',
  title: 'A page of a file, for the preview',
  description: `${PAGE_LINES} lines of a text file from a line offset, for the file preview view.`,
  input: z.object({
    path: z.string(),
    offset: z.number().int().min(0).describe('Lines to skip (0 for the top)'),
  }),
  output: z.object({
    path: z.string(),
    offset: z.number().int(),
    content: z.string(),
    lines: z.number().int(),
    next_offset: z.number().int().nullable().describe('offset of the next page; null at the end of the file'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  visibility: ['app'],
  render: (out) => `${out.path}: lines ${out.offset + 1}-${out.offset + out.lines}${out.next_offset === null ? ' (end)' : ''}`,
  async handler({ path, offset }, ctx) {
    const { handle, real: file } = await ctx.policy.openFile(path);
    try {
      const slice = await readLineRange({ handle, label: path }, offset + 1, offset + PAGE_LINES, {
        maxBytes: Math.min(ctx.maxReadBytes, MAX_RESPONSE_TEXT_BYTES),
        signal: ctx.signal,
        allowPastEnd: true,
      });
      const more = slice.lines === PAGE_LINES && slice.truncated;
      return ctx.result({ path: file, offset, content: slice.text, lines: slice.lines, next_offset: more ? offset + PAGE_LINES : null });
    } finally {
      await handle.close();
    }
  },
});
