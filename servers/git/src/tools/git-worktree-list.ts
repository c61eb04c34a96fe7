import { z } from 'zod';
import { defineTool } from '../context.js';
import { repoPath, repository, git, branchLink } from './common.js';

export const gitWorktreeList = defineTool({
  name: 'git_worktree_list',
  title: 'List Worktrees',
  description: 'List the working trees attached to the repository (the main one and any linked ones), with their branch and commit.',
  input: z.object({ repo_path: repoPath }),
  output: z.object({
    repository,
    worktrees: z.array(
      z.object({
        path: z.string(),
        commit: z.string().nullable(),
        branch: z.string().nullable(),
        bare: z.boolean(),
        detached: z.boolean(),
        locked: z.boolean(),
        prunable: z.boolean(),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) => out.worktrees.map((w) => `${w.path} ${w.commit?.slice(0, 12) ?? ''} ${w.branch ? `[${w.branch}]` : w.detached ? '(detached)' : ''}`).join('\n'),
  async handler({ repo_path }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const { stdout } = await git(ctx, repo, ['worktree', 'list', '--porcelain', '-z']);
    const worktrees = [];
    let current: Record<string, string> = {};
    for (const field of stdout.toString('utf8').split('\0')) {
      if (field === '') {
        if (current.worktree) {
          worktrees.push({
            path: current.worktree,
            commit: current.HEAD ?? null,
            branch: current.branch ? current.branch.replace(/^refs\/heads\//, '') : null,
            bare: 'bare' in current,
            detached: 'detached' in current,
            locked: 'locked' in current,
            prunable: 'prunable' in current,
          });
        }
        current = {};
        continue;
      }
      const space = field.indexOf(' ');
      current[space === -1 ? field : field.slice(0, space)] = space === -1 ? '' : field.slice(space + 1);
    }
    const links = worktrees.filter((w) => w.branch).slice(0, 50).map((w) => branchLink(ctx, repo, w.branch!));
    return ctx.result({ repository: repo.root, worktrees }, links);
  },
});
