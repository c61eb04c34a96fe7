import { z } from 'zod';
import { defineTool } from '../context.js';
import { readHead, readLineRange, readTail, readWhole } from '../lib/read-text.js';
import { FsError } from '../lib/errors.js';
import { fileUri } from '../lib/file-uri.js';

const lineCount = z
  .number()
  .min(0)
  .optional()
  .transform((n) => (n === undefined || n === 0 ? undefined : Math.ceil(n)));

const input = z.object({
  path: z.string(),
  // Numbers, as in the official server; 0 means "not given" there (the whole file), so here too.
  head: lineCount.describe('If provided, returns only the first N lines of the file'),
  tail: lineCount.describe('If provided, returns only the last N lines of the file'),
  start_line: z.number().int().positive().optional().describe('First line to return (1-based); with end_line, a range'),
  end_line: z.number().int().positive().optional().describe('Last line to return (inclusive); needs start_line or reads from line 1'),
});

const output = z.object({
  path: z.string().describe('The real path that was read'),
  content: z.string(),
  lines: z.number().int().describe('Lines in content'),
  truncated: z.boolean().describe('True when the file has more than content'),
  nextStartLine: z
    .number()
    .int()
    .optional()
    .describe('Set when a whole read was cut at the response size limit: pass it as start_line to read on'),
});

/**
 * Most bytes of text one call returns: the text travels twice (structuredContent and the
 * text block), and the whole response must stay under the client's 10 MiB message limit.
 */
export const MAX_RESPONSE_TEXT_BYTES = 2 * 1024 * 1024;

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
    whenTooLarge: 'Read fewer lines: head, tail or start_line/end_line.',
    view: 'ui://filesystem/preview',
    render: (out) =>
      out.nextStartLine === undefined
        ? out.content
        : `${out.content}${out.content.endsWith('\n') ? '' : '\n'}(cut at ${out.lines} lines, the response size limit: call again with start_line: ${out.nextStartLine} to read on)`,
    async handler(args, ctx) {
      const selectors = [args.head !== undefined, args.tail !== undefined, args.start_line !== undefined || args.end_line !== undefined];
      if (selectors.filter(Boolean).length > 1) {
        return ctx.error('Use only one of head, tail, or start_line/end_line in one call.');
      }
      // Opened once, checked to be the regular file inside the allowed directories that
      // was asked for (not a FIFO or a symlink swapped in since), and read through that descriptor.
      const { handle, real: file } = await ctx.policy.openFile(args.path);
      let slice;
      let nextStartLine: number | undefined;
      try {
        const source = { handle, label: args.path };
        const limit = { maxBytes: Math.min(ctx.maxReadBytes, MAX_RESPONSE_TEXT_BYTES), signal: ctx.signal };
        if (args.head !== undefined) slice = await readHead(source, args.head, limit);
        else if (args.tail !== undefined) slice = await readTail(source, args.tail, limit);
        else if (args.start_line !== undefined || args.end_line !== undefined) {
          slice = await readLineRange(source, args.start_line ?? 1, args.end_line, limit);
        } else {
          const { size } = await handle.stat();
          if (size > ctx.maxReadBytes) {
            throw new FsError(
              'TOO_LARGE',
              `${args.path} is ${size} bytes, above the ${ctx.maxReadBytes}-byte limit for whole reads. Read it in parts with head, tail or start_line/end_line.`,
            );
          }
          const content = await readWhole(source, ctx.maxReadBytes);
          const text = cutToResponseLimit(content);
          slice = { text, lines: countLines(text), truncated: text.length < content.length };
          if (slice.truncated) nextStartLine = slice.lines + 1;
        }
      } finally {
        await handle.close();
      }
      const next = nextStartLine === undefined ? {} : { nextStartLine };
      return ctx.result({ path: file, content: slice.text, lines: slice.lines, truncated: slice.truncated, ...next }, [
        ctx.link(fileUri(file), { mimeType: 'text/plain' }),
      ]);
    },
  });
}

/** The whole lines of `text` that fit in MAX_RESPONSE_TEXT_BYTES of UTF-8 (all of it when it fits). */
function cutToResponseLimit(text: string): string {
  if (text.length <= MAX_RESPONSE_TEXT_BYTES / 3 || Buffer.byteLength(text) <= MAX_RESPONSE_TEXT_BYTES) return text;
  const bytes = Buffer.from(text);
  const newline = bytes.lastIndexOf(0x0a, MAX_RESPONSE_TEXT_BYTES - 1);
  // One line longer than the limit: cut inside it, at a character boundary.
  const end = newline === -1 ? MAX_RESPONSE_TEXT_BYTES : newline + 1;
  return new TextDecoder().decode(bytes.subarray(0, end), { stream: true });
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
