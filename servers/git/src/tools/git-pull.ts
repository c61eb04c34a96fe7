import { z } from 'zod';
import { defineTool } from '../context.js';
import { checkRemote } from '../lib/remote.js';
import { checkRefName, ArgumentError } from '../lib/validate.js';
import { repoPath, repository, git, branchLink } from './common.js';
import { remoteName } from './git-fetch.js';

export const gitPull = defineTool({
  name: 'git_pull',
  title: 'Pull (fast-forward only)',
  description:
    'Fetch a branch from a configured remote and fast-forward the current branch to it. Never merges or rebases: if the histories diverged it fails and changes nothing.',
  input: z.object({
    repo_path: repoPath,
    remote: remoteName,
    branch: z.string().optional().describe('The remote branch to pull (default: the current branch name)'),
  }),
  output: z.object({ repository, remote: z.string(), branch: z.string(), before: z.string(), after: z.string(), fast_forwarded: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  render: (out) => (out.fast_forwarded ? `Fast-forwarded ${out.before.slice(0, 10)}..${out.after.slice(0, 10)} from ${out.remote}/${out.branch}` : 'Already up to date.'),
  async handler({ repo_path, remote, branch }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const current = (await git(ctx, repo, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okCodes: [1] })).stdout.toString().trim();
    if (!current) throw new ArgumentError('HEAD is detached; check out a branch before pulling.');
    const name = await checkRefName(repo, branch ?? current, 'branch');
    const checked = await checkRemote(ctx.git, repo, remote, await ctx.repos.allowed(), 'fetch', ctx.signal);
    return ctx.git.exclusive(repo, async () => {
      const head = async () => (await git(ctx, repo, ['rev-parse', 'HEAD'])).stdout.toString().trim();
      const before = await head();
      await git(
        ctx,
        repo,
        ['pull', checked.pack, '--ff-only', '--no-rebase', '--no-recurse-submodules', '--no-edit', '--no-stat', '--end-of-options', remote, `refs/heads/${name}`],
        { config: checked.config },
      );
      const after = await head();
      return ctx.result({ repository: repo.root, remote, branch: name, before, after, fast_forwarded: before !== after }, [branchLink(ctx, repo, current)]);
    });
  },
});
