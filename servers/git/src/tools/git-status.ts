import { z } from 'zod';
import { defineTool } from '../context.js';
import { parseStatus } from '../lib/parse.js';
import { uris } from '../lib/uris.js';
import { repoPath, repository, git, branchLink, fileLink } from './common.js';

export const gitStatus = defineTool({
  name: 'git_status',
  title: 'Status',
  description: 'Show the working tree status: the current branch, its upstream, and each changed, staged, untracked or conflicted file.',
  input: z.object({ repo_path: repoPath }),
  output: z.object({
    repository,
    branch: z.string().nullable().describe('null when HEAD is detached'),
    head: z.string().nullable().describe('The commit HEAD points to; null before the first commit'),
    upstream: z.string().nullable(),
    ahead: z.number().int(),
    behind: z.number().int(),
    clean: z.boolean(),
    truncated: z.boolean().describe('True when there were more changed files than one result holds: narrow with git_diff_unstaged path'),
    files: z.array(
      z.object({
        path: z.string(),
        orig_path: z.string().optional(),
        index: z.string().describe('Staged state letter (M, A, D, R, C, U, "." unchanged, "?" untracked)'),
        worktree: z.string().describe('Work-tree state letter'),
        staged: z.boolean(),
        unstaged: z.boolean(),
        untracked: z.boolean(),
        conflicted: z.boolean(),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    [
      `Repository: ${out.repository}`,
      `On branch ${out.branch ?? '(detached HEAD)'}${out.upstream ? ` tracking ${out.upstream} (ahead ${out.ahead}, behind ${out.behind})` : ''}`,
      out.clean ? 'nothing to commit, working tree clean' : out.files.map((f) => `${f.index}${f.worktree} ${f.path}${f.orig_path ? ` (was ${f.orig_path})` : ''}`).join('\n'),
      ...(out.truncated ? ['[more files: the list was cut]'] : []),
    ].join('\n'),
  async handler({ repo_path }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const { stdout, truncated } = await git(ctx, repo, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'], {
      // A file's line of git's output is shorter than what it costs in the result (below):
      // this much output holds at least the files that fit, and is all that is parsed.
      maxBytes: ctx.maxOutputBytes,
    });
    const text = stdout.toString('utf8');
    // A cut output ends mid-entry: keep the whole entries.
    const status = parseStatus(truncated ? text.slice(0, text.lastIndexOf('\0') + 1) : text);
    // A file costs several times its line of git's output in the result (an object with its
    // flags, then a line of the text): 70,000 untracked files, 2 MiB of git's output, made a
    // result of 14.6 MB, over what a response may carry. The list is held to about
    // --max-output-bytes.
    const kept = filesWithin(status.files, ctx.maxOutputBytes);
    const cut = kept < status.files.length;
    status.files.length = kept;
    const links = [ctx.link(uris.status(repo.id), { name: 'status', mimeType: 'application/json' })];
    if (status.branch) links.push(branchLink(ctx, repo, status.branch));
    for (const f of status.files.slice(0, 50)) if (!f.untracked && f.index !== 'D' && f.worktree !== 'D' && status.head) links.push(fileLink(ctx, repo, 'HEAD', f.path));
    return ctx.result({ repository: repo.root, ...status, clean: status.files.length === 0 && !truncated && !cut, truncated: truncated || cut }, links);
  },
});

/** How many of `files` fit in about `bytes` of result (structured and text together); one at least. */
function filesWithin(files: readonly { path: string; orig_path?: string }[], bytes: number): number {
  let used = 0;
  for (let i = 0; i < files.length; i++) {
    used += 150 + 2 * (files[i].path.length + (files[i].orig_path?.length ?? 0));
    if (used > bytes) return Math.max(1, i);
  }
  return files.length;
}
