import { z } from 'zod';
import { lstat, stat } from 'node:fs/promises';
import { defineTool } from '../context.js';
import { fileUri } from '../lib/file-uri.js';
import { mimeTypeOf } from '../lib/mime.js';

export const getFileInfo = defineTool({
  name: 'get_file_info',
  title: 'Get File Info',
  description:
    'Metadata of a file or directory: size, creation, modification and access times, permissions, type and MIME type, without reading it. ' +
    'Only works within allowed directories.',
  input: z.object({ path: z.string() }),
  output: z.object({
    path: z.string(),
    size: z.number().int(),
    created: z.string(),
    modified: z.string(),
    accessed: z.string(),
    isDirectory: z.boolean(),
    isFile: z.boolean(),
    isSymlink: z.boolean().describe('The requested path is a symlink (the other fields describe its target)'),
    permissions: z.string().describe('Octal, e.g. 644'),
    mimeType: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    Object.entries(out)
      .map(([key, value]) => `${key}: ${value}`)
      .join('\n'),
  async handler({ path }, ctx) {
    const real = await ctx.policy.resolveReadable(path);
    const [info, link] = await Promise.all([stat(real), lstat(path).catch(() => undefined)]);
    const result = {
      path: real,
      size: info.size,
      created: info.birthtime.toISOString(),
      modified: info.mtime.toISOString(),
      accessed: info.atime.toISOString(),
      isDirectory: info.isDirectory(),
      isFile: info.isFile(),
      isSymlink: Boolean(link?.isSymbolicLink()),
      permissions: (info.mode & 0o777).toString(8),
      ...(info.isFile() ? { mimeType: mimeTypeOf(real) } : {}),
    };
    return ctx.result(result, info.isFile() ? [ctx.link(fileUri(real), { mimeType: result.mimeType })] : []);
  },
});
