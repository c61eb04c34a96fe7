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
      out.clean ? 'nothing to commit, working tree clean' : out.files.map((f) => `${f.index}${f.worktree} ${f.path}${f.orig_path ? ` (from ${f.orig_path})` : ''}`).join('\n'),
    ].join('\n'),
  async handler({ repo_path }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const { stdout } = await git(ctx, repo, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all']);
    const status = parseStatus(stdout.toString('utf8'));
    const links = [ctx.link(uris.status(repo.id), { name: 'status', mimeType: 'application/json' })];
    if (status.branch) links.push(branchLink(ctx, repo, status.branch));
    for (const f of status.files.slice(0, 50)) if (!f.untracked && f.index !== 'D' && f.worktree !== 'D' && status.head) links.push(fileLink(ctx, repo, 'HEAD', f.path));
    return ctx.result({ repository: repo.root, ...status, clean: status.files.length === 0 }, links);
  },
});
