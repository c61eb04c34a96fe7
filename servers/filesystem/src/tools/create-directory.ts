import { z } from 'zod';
import { lstat } from 'node:fs/promises';
import { defineTool } from '../context.js';
import { FsError } from '../lib/errors.js';
import { makeDirectories } from '../lib/make-dirs.js';

export const createDirectory = defineTool({
  name: 'create_directory',
  title: 'Create Directory',
  description:
    'Create a directory, with any missing parents. Succeeds quietly if it already exists. Only works within allowed directories.',
  input: z.object({ path: z.string() }),
  output: z.object({ path: z.string(), created: z.boolean() }),
  annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  render: (out) => `${out.created ? 'Created' : 'Already exists:'} ${out.path}`,
  async handler({ path }, ctx) {
    const target = await ctx.policy.resolveWritable(path);
    const existing = await lstat(target).catch(() => undefined);
    if (existing && !existing.isDirectory()) throw new FsError('EXISTS', `${path} exists and is not a directory.`);
    // One level at a time, each made in the directory held open before it: a directory
    // swapped for a symlink meanwhile cannot make this create anything outside.
    if (!existing) await makeDirectories(target, ctx.policy.contains);
    return ctx.result({ path: target, created: !existing });
  },
});
