import { z } from 'zod';
import { defineTool } from '../context.js';
import { checkRefName, commitOf } from '../lib/validate.js';
import { repoPath, repository, git, branchLink } from './common.js';

export const gitCreateBranch = defineTool({
  name: 'git_create_branch',
  title: 'Create Branch',
  description: 'Create a new branch from base_branch (default: the current HEAD). Does not switch to it.',
  input: z.object({
    repo_path: repoPath,
    branch_name: z.string().describe('Name of the new branch'),
    base_branch: z.string().optional().describe('Branch, tag or commit to start from (default: HEAD)'),
  }),
  output: z.object({ repository, branch: z.string(), commit: z.string(), base: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  render: (out) => `Created branch '${out.branch}' at ${out.commit.slice(0, 12)} (base ${out.base})`,
  async handler({ repo_path, branch_name, base_branch }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    await checkRefName(repo, branch_name, 'branch');
    const base = base_branch ?? 'HEAD';
    const commit = await commitOf(repo, base, ctx.signal);
    return ctx.git.exclusive(repo, async () => {
      // No --force: an existing branch is an error, never overwritten.
      await git(ctx, repo, ['branch', '--no-track', '--end-of-options', branch_name, commit]);
      return ctx.result({ repository: repo.root, branch: branch_name, commit, base }, [branchLink(ctx, repo, branch_name)]);
    });
  },
});
