import { z } from 'zod';
import { defineTool } from '../context.js';
import { checkRefName, commitOf, assertNotOption, ArgumentError } from '../lib/validate.js';
import { askThenLock, lookAtWorktree } from './ask-then-lock.js';
import { repoPath, repository, git, branchLink, commitLink } from './common.js';

export const gitCheckout = defineTool({
  name: 'git_checkout',
  title: 'Checkout',
  description:
    'Switch to an existing local branch, or check out a tag, a commit or a remote branch (origin/main) with a detached HEAD, as git checkout does. ' +
    'Uncommitted changes that the switch would overwrite make it fail (nothing is discarded); ' +
    'with force: true they are discarded, after asking the user when the client supports it.',
  input: z.object({
    repo_path: repoPath,
    branch_name: z.string().describe('Name of the branch to switch to; a tag, a commit or a remote branch gives a detached HEAD'),
    force: z.boolean().default(false).describe('Discard local changes that would block the switch (asks first)'),
  }),
  output: z.object({
    repository,
    branch: z.string().nullable().describe('The branch switched to; null when HEAD is detached at a tag, a commit or a remote branch'),
    commit: z.string(),
    detached: z.boolean(),
    discarded: z.array(z.string()),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  render: (out) => (out.branch === null ? `HEAD is now at ${out.commit} (detached)` : `Switched to branch '${out.branch}'`),
  async handler({ repo_path, branch_name, force }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    assertNotOption(branch_name, 'branch_name');
    const isBranchName = await checkRefName(repo, branch_name, 'branch').then(() => true, () => false);
    const local = isBranchName && (await git(ctx, repo, ['show-ref', '--verify', '--quiet', `refs/heads/${branch_name}`], { okCodes: [1] })).code === 0;
    // Not a local branch: a tag, a commit or a remote branch, checked out detached as git checkout does.
    const detachedAt = local
      ? undefined
      : await commitOf(repo, branch_name, ctx.signal).catch(() => {
          throw new ArgumentError(
            `There is no local branch, tag, remote branch or commit "${branch_name}" in ${repo.root}. Use git_branch (branch_type "all") or git_tag to list them, or git_create_branch.`,
          );
        });
    const target = detachedAt === undefined ? ['--no-guess', '--end-of-options', branch_name] : ['--detach', '--end-of-options', detachedAt];
    const checkout = async (discarded: string[]) => {
      await git(ctx, repo, ['switch', '--quiet', ...(force ? ['--discard-changes'] : []), ...target]);
      const commit = (await git(ctx, repo, ['rev-parse', 'HEAD'])).stdout.toString().trim();
      if (detachedAt !== undefined) {
        return ctx.result({ repository: repo.root, branch: null, commit, detached: true, discarded }, [commitLink(ctx, repo, { commit, subject: branch_name })]);
      }
      return ctx.result({ repository: repo.root, branch: branch_name, commit, detached: false, discarded }, [branchLink(ctx, repo, branch_name)]);
    };
    if (!force) return ctx.git.exclusive(repo, () => checkout([]));
    // Asked before the lock, checked again under it (ask-then-lock.ts).
    return askThenLock(ctx, repo, {
      look: (again) =>
        lookAtWorktree(ctx, repo, again ? undefined : (files, described) => `Switching to ${branch_name} discards uncommitted changes to ${files.length} file(s) (${described}). Go ahead?`),
      declined: 'The user declined; the branch was not switched.',
      changed:
        `The uncommitted changes in ${repo.root} changed before the switch (someone staged, edited or committed meanwhile, perhaps while the user was being asked): ` +
        'the branch was not switched, and those changes are kept. Look at git_status again, then call again if they should still be discarded.',
      act: (seen) => checkout(seen.files),
    });
  },
});
