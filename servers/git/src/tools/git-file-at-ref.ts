import { z } from 'zod';
import { defineTool } from '../context.js';
import { commitOf, treePath, ArgumentError } from '../lib/validate.js';
import { readBlob } from '../lib/blob.js';
import { repoPath, repository, fileLink } from './common.js';

export const gitFileAtRef = defineTool({
  name: 'git_file_at_ref',
  title: 'File at Ref',
  description:
    'Read a file as it is at a branch, tag or commit (default HEAD), optionally only lines start_line..end_line. ' +
    'Binary files are reported, not returned; text past the output limit is cut (truncated: true).',
  input: z.object({
    repo_path: repoPath,
    path: z.string().describe('Path of the file, relative to the repository top'),
    ref: z.string().optional().describe('Branch, tag or commit (default HEAD)'),
    start_line: z.number().int().min(1).optional(),
    end_line: z.number().int().min(1).optional(),
  }),
  output: z.object({
    repository,
    path: z.string(),
    ref: z.string(),
    commit: z.string(),
    content: z.string(),
    binary: z.boolean(),
    size: z.number().int().describe('Size of the whole file in bytes'),
    total_lines: z.number().int(),
    truncated: z.boolean(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) => (out.binary ? `${out.path} at ${out.ref} is binary (${out.size} bytes).` : out.content + (out.truncated ? '\n[truncated: ask for a line range]' : '')),
  async handler({ repo_path, path, ref, start_line, end_line }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const file = treePath(path);
    if (file === '') throw new ArgumentError('path names the repository top; give a file.');
    const refName = ref ?? 'HEAD';
    const commit = await commitOf(repo, refName, ctx.signal);
    const blob = await readBlob(ctx.git, repo, commit, file, { signal: ctx.signal, maxBytes: ctx.maxOutputBytes, start_line, end_line });
    return ctx.result({ repository: repo.root, path: file, ref: refName, commit, ...blob }, [fileLink(ctx, repo, commit, file)]);
  },
});
