import { z } from 'zod';
import { defineTool } from '../context.js';
import { checkRefName, ArgumentError } from '../lib/validate.js';
import { parseStatus } from '../lib/parse.js';
import { repoPath, repository, git, branchLink } from './common.js';

export const gitCheckout = defineTool({
  name: 'git_checkout',
  title: 'Checkout',
  description:
    'Switch to an existing local branch. Uncommitted changes that the switch would overwrite make it fail (nothing is discarded); ' +
    'with force: true they are discarded, after asking the user when the client supports it.',
  input: z.object({
    repo_path: repoPath,
    branch_name: z.string().describe('Name of the branch to switch to'),
    force: z.boolean().default(false).describe('Discard local changes that would block the switch (asks first)'),
  }),
  output: z.object({ repository, branch: z.string(), commit: z.string(), discarded: z.array(z.string()) }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  render: (out) => `Switched to branch '${out.branch}'`,
  async handler({ repo_path, branch_name, force }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    await checkRefName(repo, branch_name, 'branch');
    const exists = await git(ctx, repo, ['show-ref', '--verify', '--quiet', `refs/heads/${branch_name}`], { okCodes: [1] });
    if (exists.code !== 0) throw new ArgumentError(`There is no local branch "${branch_name}" in ${repo.root}. Use git_branch to list branches, or git_create_branch.`);
    return ctx.git.exclusive(repo, async () => {
      let discarded: string[] = [];
      if (force) {
        const status = parseStatus((await git(ctx, repo, ['status', '--porcelain=v2', '-z', '--untracked-files=no'])).stdout.toString());
        discarded = status.files.map((f) => f.path);
        if (discarded.length > 0 && !(await ctx.confirm(`Switching to ${branch_name} discards uncommitted changes to ${discarded.length} file(s) (${discarded.slice(0, 5).join(', ')}). Go ahead?`))) {
          return ctx.error('The user declined; the branch was not switched.');
        }
      }
      await git(ctx, repo, ['switch', '--quiet', '--no-guess', ...(force ? ['--discard-changes'] : []), '--end-of-options', branch_name]);
      const commit = (await git(ctx, repo, ['rev-parse', 'HEAD'])).stdout.toString().trim();
      return ctx.result({ repository: repo.root, branch: branch_name, commit, discarded }, [branchLink(ctx, repo, branch_name)]);
    });
  },
});
