import { z } from 'zod';
import nodePath from 'node:path';
import { defineTool } from '../context.js';
import { fileUri, pathOfFileUri } from '../lib/file-uri.js';
import { mimeTypeOf } from '../lib/mime.js';
import { getFileInfo as readFileInfo, isSymlinkConfined } from '../lib/file-info.js';

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
    // The entry as the policy read it (relative to the first allowed directory, file://
    // URIs decoded), not as the process's working directory would: lstat(path) probed
    // cwd-relative paths outside the allowed directories and missed links given as URIs.
    const requested = nodePath.resolve((await ctx.policy.allowed())[0], pathOfFileUri(path) ?? path);
    // Both read through descriptors checked to be inside the allowed directories, not by
    // path: a directory on the way swapped for a symlink must not yield outside metadata.
    const [info, isSymlink] = await Promise.all([
      readFileInfo(real, ctx.policy.contains),
      isSymlinkConfined(requested, real, ctx.policy.contains),
    ]);
    const result = {
      path: real,
      ...info,
      created: info.created.toISOString(),
      modified: info.modified.toISOString(),
      accessed: info.accessed.toISOString(),
      isSymlink,
      ...(info.isFile ? { mimeType: mimeTypeOf(real) } : {}),
    };
    return ctx.result(result, info.isFile ? [ctx.link(fileUri(real), { mimeType: result.mimeType })] : []);
  },
});
