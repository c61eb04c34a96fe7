import { z } from 'zod';
import { defineTool } from '../context.js';
import { readChunk, readHead, readLineRange, readTail, type ChunkSlice } from '../lib/read-text.js';
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
  start_byte: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Byte offset to read on from (the nextStartByte of a cut answer): the rest of the file, up to the response size limit'),
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
    .describe('Set when a read was cut at a line end at the response size limit: pass it as start_line to read on'),
  nextStartByte: z
    .number()
    .int()
    .optional()
    .describe('Set whenever a read was cut at the response size limit (inside a very long line too): pass it as start_byte to read on, byte for byte'),
});

/**
 * Most bytes of text one call returns: the text travels twice (structuredContent and the
 * text block), and the whole response must stay under the client's 10 MiB message limit.
 */
export const MAX_RESPONSE_TEXT_BYTES = 2 * 1024 * 1024;

/** Most bytes that text may take as a JSON string (escapes included): it travels twice. */
const MAX_WIRE_BYTES = 3 * 1024 * 1024;

const description =
  'Read a UTF-8 text file. Use head or tail for the first or last N lines, or start_line/end_line for a range; ' +
  'files above the size limit must be read that way. An answer cut at the response size limit says where to read on ' +
  '(nextStartByte, to pass as start_byte; nextStartLine when the cut fell at a line end). Only works within allowed directories.';

function defineReader(name: string, title: string, text: string) {
  return defineTool({
    name,
    title,
    description: text,
    input,
    output,
    annotations: { readOnlyHint: true, openWorldHint: false },
    whenTooLarge: 'Read fewer lines: head, tail or start_line/end_line (a read to the end is cut and names a start_byte to read on from).',
    view: 'ui://filesystem/preview',
    render: (out) =>
      out.nextStartByte === undefined
        ? out.content
        : `${out.content}${out.content.endsWith('\n') ? '' : '\n'}(cut at the response size limit: call again with ` +
          (out.nextStartLine === undefined
            ? `start_byte: ${out.nextStartByte} to read on; the cut is inside a line)`
            : `start_line: ${out.nextStartLine} (or start_byte: ${out.nextStartByte}) to read on)`),
    async handler(args, ctx) {
      const byLine = args.start_line !== undefined || args.end_line !== undefined;
      const selectors = [args.head !== undefined, args.tail !== undefined, byLine, args.start_byte !== undefined];
      if (selectors.filter(Boolean).length > 1) {
        return ctx.error('Use only one of head, tail, start_line/end_line, or start_byte in one call.');
      }
      // Opened once, checked to be the regular file inside the allowed directories that
      // was asked for (not a FIFO or a symlink swapped in since), and read through that descriptor.
      const { handle, real: file } = await ctx.policy.openFile(args.path);
      let slice: ChunkSlice;
      try {
        const source = { handle, label: args.path };
        const limit = { maxBytes: Math.min(ctx.maxReadBytes, MAX_RESPONSE_TEXT_BYTES), signal: ctx.signal };
        // Every read counts what it may hold against the server's budget of bytes in flight.
        const chunk = async (start: { byte: number } | { line: number }) => {
          // Cut by the size the text travels at: control characters take 6 bytes each in
          // JSON, and a cut that did not fit the answer could never be read on from.
          for (let maxBytes = limit.maxBytes; ; ) {
            const part = await readChunk(source, start, { ...limit, maxBytes, reserve: ctx.readBudget.reserve });
            const wire = part.text.length * 6 <= MAX_WIRE_BYTES ? 0 : Buffer.byteLength(JSON.stringify(part.text));
            if (wire <= MAX_WIRE_BYTES || maxBytes <= 4096) return part;
            maxBytes = Math.max(4096, Math.floor((maxBytes * MAX_WIRE_BYTES) / wire));
          }
        };
        // Head, tail and ranges hold at most the limit; they reserve it (they cannot know less beforehand).
        const bounded = async (read: () => Promise<ChunkSlice>) => {
          const release = await ctx.readBudget.reserve(limit.maxBytes);
          try {
            return await read();
          } finally {
            release();
          }
        };
        if (args.head !== undefined) slice = await bounded(() => readHead(source, args.head!, limit));
        else if (args.tail !== undefined) slice = await bounded(() => readTail(source, args.tail!, limit));
        else if (args.start_byte !== undefined) slice = await chunk({ byte: args.start_byte });
        else if (args.end_line !== undefined) slice = await bounded(() => readLineRange(source, args.start_line ?? 1, args.end_line, limit));
        // From a line to the end: cut at the limit like a whole read, never refused for its length.
        else if (args.start_line !== undefined) slice = await chunk({ line: args.start_line });
        else {
          const { size } = await handle.stat();
          if (size > ctx.maxReadBytes) {
            throw new FsError(
              'TOO_LARGE',
              `${args.path} is ${size} bytes, above the ${ctx.maxReadBytes}-byte limit for whole reads. Read it in parts with head, tail, start_line/end_line or start_byte.`,
            );
          }
          // Only what is returned is read and decoded, not the whole file.
          slice = await chunk({ byte: 0 });
        }
      } finally {
        // Closed without waiting for it: the answer does not depend on it, and a trip through
        // the thread pool is a good part of a head or tail call.
        void handle.close().catch(() => undefined);
      }
      const next = {
        ...(slice.nextLine === undefined ? {} : { nextStartLine: slice.nextLine }),
        ...(slice.nextByte === undefined ? {} : { nextStartByte: slice.nextByte }),
      };
      return ctx.result({ path: file, content: slice.text, lines: slice.lines, truncated: slice.truncated, ...next }, [
        ctx.link(fileUri(file), { mimeType: 'text/plain' }),
      ]);
    },
  });
}

export const readTextFile = defineReader('read_text_file', 'Read Text File', description);

/** Kept so that clients written for the older server keep working. */
export const readFile = defineReader('read_file', 'Read File (Deprecated)', `DEPRECATED: use read_text_file. ${description}`);
