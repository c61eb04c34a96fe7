import { z } from 'zod';
import { defineTool } from '../context.js';
import { commitOf, treePath, ArgumentError } from '../lib/validate.js';
import { readBlob } from '../lib/blob.js';
import { repoPath, repository, fileLink, progressByBytes } from './common.js';

export const gitFileAtRef = defineTool({
  name: 'git_file_at_ref',
  title: 'File at Ref',
  description:
    'Read a file as it is at a branch, tag or commit (default HEAD), optionally only lines start_line..end_line ' +
    'or the bytes from start_byte. Binary files are reported, not returned. Text past the output limit is cut ' +
    '(truncated: true) where it can be read on from: next_line to pass as start_line when the cut fell at a line end, ' +
    'next_byte to pass as start_byte always (inside a very long line too).',
  input: z.object({
    repo_path: repoPath,
    path: z.string().describe('Path of the file, relative to the repository top'),
    ref: z.string().optional().describe('Branch, tag or commit (default HEAD)'),
    start_line: z.number().int().min(1).optional().describe('First line to return (1-based); with end_line, a range'),
    end_line: z.number().int().min(1).optional().describe('Last line to return (inclusive)'),
    start_byte: z.number().int().min(0).optional().describe('Byte offset to read on from (the next_byte of a cut answer); not with start_line/end_line'),
  }),
  output: z.object({
    repository,
    path: z.string(),
    ref: z.string(),
    commit: z.string(),
    content: z.string(),
    binary: z.boolean(),
    size: z.number().int().describe('Size of the whole file in bytes'),
    total_lines: z
      .number()
      .int()
      .optional()
      .describe('Lines in the whole file; absent when a file larger than 8x the output limit was read only up to the part asked for'),
    truncated: z.boolean().describe('True when the part asked for goes on past content'),
    next_line: z.number().int().optional().describe('Set when the answer was cut at a line end: pass it as start_line to read on'),
    next_byte: z.number().int().optional().describe('Set whenever the answer was cut: pass it as start_byte to read on, byte for byte'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    out.binary
      ? `${out.path} at ${out.ref} is binary (${out.size} bytes).`
      : out.content + (out.truncated ? `\n[truncated: read on with ${out.next_line !== undefined ? `start_line ${out.next_line} or ` : ''}start_byte ${out.next_byte}]` : ''),
  async handler({ repo_path, path, ref, start_line, end_line, start_byte }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const file = treePath(path);
    if (file === '') throw new ArgumentError('path names the repository top; give a file.');
    const refName = ref ?? 'HEAD';
    const commit = await commitOf(repo, refName, ctx.signal);
    const blob = await readBlob(ctx.git, repo, commit, file, {
      signal: ctx.signal,
      onData: progressByBytes(ctx),
      maxBytes: ctx.maxOutputBytes,
      start_line,
      end_line,
      start_byte,
    });
    return ctx.result({ repository: repo.root, path: file, ref: refName, commit, ...blob }, [fileLink(ctx, repo, commit, file)]);
  },
});
