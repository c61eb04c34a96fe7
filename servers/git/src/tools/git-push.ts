import { z } from 'zod';
import { defineTool } from '../context.js';
import { checkRemote } from '../lib/remote.js';
import { checkRefName, ArgumentError } from '../lib/validate.js';
import { repoPath, repository, git, branchLink } from './common.js';
import { remoteName } from './git-fetch.js';
import { askThenLock } from './ask-then-lock.js';

export const gitPush = defineTool({
  name: 'git_push',
  title: 'Push',
  description:
    'Push a local branch to the same-named branch of a configured remote, after asking the user when the client supports it. ' +
    'Never forced: a push that is not a fast-forward is rejected by git and changes nothing.',
  input: z.object({
    repo_path: repoPath,
    remote: remoteName,
    branch: z.string().optional().describe('The local branch to push (default: the current branch)'),
  }),
  output: z.object({ repository, remote: z.string(), url: z.string(), branch: z.string(), commit: z.string(), status: z.string().describe("git's summary of the ref update") }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  render: (out) => `Pushed ${out.branch} (${out.commit.slice(0, 10)}) to ${out.remote}: ${out.status}`,
  async handler({ repo_path, remote, branch }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const current = (await git(ctx, repo, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okCodes: [1] })).stdout.toString().trim();
    const name = await checkRefName(repo, branch ?? current, 'branch');
    if (!name) throw new ArgumentError('HEAD is detached; name the branch to push.');
    const tip = async () => (await git(ctx, repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${name}`], { okCodes: [1] })).stdout.toString().trim();
    if (!(await tip())) throw new ArgumentError(`There is no local branch "${name}".`);
    const checked = await checkRemote(ctx.git, repo, remote, await ctx.repos.allowed(), 'push', ctx.signal);
    // Asked before the lock, checked again under it (ask-then-lock.ts): the commit pushed is
    // the one the person was shown, not one committed while they were being asked.
    return askThenLock(ctx, repo, {
      look: async () => {
        const commit = await tip();
        return { key: commit, commit, question: `Push branch ${name} (${commit.slice(0, 10)}) of ${repo.root} to ${remote} (${checked.url})?` };
      },
      declined: 'The user declined; nothing was pushed.',
      changed: `Branch ${name} moved (a commit, a reset) before it could be pushed, perhaps while the user was being asked: nothing was pushed. Call again to push it as it is now.`,
      act: async ({ commit }) => {
        // An explicit refspec without "+": configured push refspecs, mirror and force never apply.
        const { stdout } = await git(
          ctx,
          repo,
          ['push', checked.pack, '--porcelain', '--no-verify', '--no-signed', '--no-recurse-submodules', '--end-of-options', remote, `${commit}:refs/heads/${name}`],
          { config: checked.config },
        );
        const line = stdout.toString('utf8').split('\n').find((row) => row.includes(`refs/heads/${name}`)) ?? '';
        const status = line.split('\t').pop()?.trim() || 'done';
        return ctx.result({ repository: repo.root, remote, url: checked.url, branch: name, commit, status }, [branchLink(ctx, repo, name)]);
      },
    });
  },
});
