import { z } from 'zod';
import { stat } from 'node:fs/promises';
import { defineTool } from '../context.js';
import { readWhole } from '../lib/read-text.js';
import { FsError } from '../lib/errors.js';
import { fileUri } from '../lib/file-uri.js';

export const readMultipleFiles = defineTool({
  name: 'read_multiple_files',
  title: 'Read Multiple Files',
  description:
    "Read several text files at once. Each file's content comes with its path; a file that cannot be read gets an error entry and does not stop the others. Only works within allowed directories.",
  input: z.object({
    paths: z.array(z.string()).min(1).max(100).describe('Paths of the files to read'),
  }),
  output: z.object({
    files: z.array(
      z.object({
        path: z.string().describe('The path as requested'),
        content: z.string().optional(),
        error: z.string().optional(),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    out.files.map((f) => (f.error !== undefined ? `${f.path}: Error - ${f.error}` : `${f.path}:\n${f.content}\n`)).join('\n---\n'),
  async handler({ paths }, ctx) {
    const links: ReturnType<typeof ctx.link>[] = [];
    const files = await Promise.all(
      paths.map(async (path) => {
        try {
          const file = await ctx.policy.resolveFile(path);
          const { size } = await stat(file);
          if (size > ctx.maxReadBytes) {
            throw new FsError('TOO_LARGE', `${size} bytes, above the ${ctx.maxReadBytes}-byte limit; use read_text_file with head, tail or a line range.`);
          }
          const content = await readWhole(file, ctx.maxReadBytes);
          links.push(ctx.link(fileUri(file), { mimeType: 'text/plain' }));
          return { path, content };
        } catch (error) {
          if (!(error instanceof FsError)) throw error;
          return { path, error: error.message };
        }
      }),
    );
    return ctx.result({ files }, links);
  },
});
