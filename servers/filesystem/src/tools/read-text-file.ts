import { z } from 'zod';
import { stat } from 'node:fs/promises';
import { defineTool } from '../context.js';
import { readHead, readLineRange, readTail, readWhole } from '../lib/read-text.js';
import { FsError } from '../lib/errors.js';
import { fileUri } from '../lib/file-uri.js';

const input = z.object({
  path: z.string(),
  head: z.number().int().positive().optional().describe('If provided, returns only the first N lines of the file'),
  tail: z.number().int().positive().optional().describe('If provided, returns only the last N lines of the file'),
  start_line: z.number().int().positive().optional().describe('First line to return (1-based); with end_line, a range'),
  end_line: z.number().int().positive().optional().describe('Last line to return (inclusive); needs start_line or reads from line 1'),
});

const output = z.object({
  path: z.string().describe('The real path that was read'),
  content: z.string(),
  lines: z.number().int().describe('Lines in content'),
  truncated: z.boolean().describe('True when the file has more than content'),
});

const description =
  'Read a UTF-8 text file. Use head or tail for the first or last N lines, or start_line/end_line for a range; ' +
  'files above the size limit must be read that way. Only works within allowed directories.';

function defineReader(name: string, title: string, text: string) {
  return defineTool({
    name,
    title,
    description: text,
    input,
    output,
    annotations: { readOnlyHint: true, openWorldHint: false },
    render: (out) => out.content,
    async handler(args, ctx) {
      const selectors = [args.head !== undefined, args.tail !== undefined, args.start_line !== undefined || args.end_line !== undefined];
      if (selectors.filter(Boolean).length > 1) {
        return ctx.error('Use only one of head, tail, or start_line/end_line in one call.');
      }
      const file = await ctx.policy.resolveFile(args.path);
      const limit = { maxBytes: ctx.maxReadBytes };
      let slice;
      if (args.head !== undefined) slice = await readHead(file, args.head, limit);
      else if (args.tail !== undefined) slice = await readTail(file, args.tail, limit);
      else if (args.start_line !== undefined || args.end_line !== undefined) {
        slice = await readLineRange(file, args.start_line ?? 1, args.end_line, limit);
      } else {
        const { size } = await stat(file);
        if (size > ctx.maxReadBytes) {
          throw new FsError(
            'TOO_LARGE',
            `${args.path} is ${size} bytes, above the ${ctx.maxReadBytes}-byte limit for whole reads. Read it in parts with head, tail or start_line/end_line.`,
          );
        }
        const content = await readWhole(file, ctx.maxReadBytes);
        slice = { text: content, lines: countLines(content), truncated: false };
      }
      return ctx.result({ path: file, content: slice.text, lines: slice.lines, truncated: slice.truncated }, [
        ctx.link(fileUri(file), { mimeType: 'text/plain' }),
      ]);
    },
  });
}

function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) if (i < text.length - 1) lines++;
  return lines;
}

export const readTextFile = defineReader('read_text_file', 'Read Text File', description);

/** Kept so that clients written for the older server keep working. */
export const readFile = defineReader('read_file', 'Read File (Deprecated)', `DEPRECATED: use read_text_file. ${description}`);
