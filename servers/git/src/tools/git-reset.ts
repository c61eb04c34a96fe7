import { z } from 'zod';
import { defineTool } from '../context.js';
import { repoPath, repository, git } from './common.js';
import { parseStatus } from '../lib/parse.js';
import { askThenLock, lookAtWorktree } from './ask-then-lock.js';

export const gitReset = defineTool({
  name: 'git_reset',
  title: 'Reset (Unstage)',
  description:
    'Unstage all staged changes (git reset), keeping the work tree as it is. With hard: true, also discard every uncommitted change ' +
    'to tracked files (git reset --hard), after asking the user when the client supports it.',
  input: z.object({
    repo_path: repoPath,
    hard: z.boolean().default(false).describe('Also discard uncommitted changes to tracked files (asks first)'),
  }),
  output: z.object({ repository, mode: z.enum(['mixed', 'hard']), unstaged: z.array(z.string()), discarded: z.array(z.string()) }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  render: (out) => (out.mode === 'hard' ? `Discarded changes to: ${out.discarded.join(', ') || 'nothing'}` : 'All staged changes reset'),
  async handler({ repo_path, hard }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    if (!hard) {
      return ctx.git.exclusive(repo, async () => {
        const status = parseStatus((await git(ctx, repo, ['status', '--porcelain=v2', '-z', '--untracked-files=no'])).stdout.toString());
        await git(ctx, repo, ['reset', '--quiet']);
        return ctx.result({ repository: repo.root, mode: 'mixed' as const, unstaged: status.files.filter((f) => f.staged).map((f) => f.path), discarded: [] });
      });
    }
    // Asked before the lock, checked again under it (ask-then-lock.ts).
    return askThenLock(ctx, repo, {
      look: (again) => lookAtWorktree(ctx, repo, again ? undefined : (files, described) => `Discard uncommitted changes to ${files.length} file(s) in ${repo.root} (${described})?`),
      declined: 'The user declined; nothing was reset.',
      changed:
        `The uncommitted changes in ${repo.root} changed before they could be discarded (someone staged, edited or committed meanwhile, ` +
        'perhaps while the user was being asked): nothing was reset, and those changes are kept. Look at git_status again, then call again if they should still be discarded.',
      act: async (seen) => {
        await git(ctx, repo, ['reset', '--hard', '--quiet']);
        return ctx.result({ repository: repo.root, mode: 'hard' as const, unstaged: seen.staged, discarded: seen.files });
      },
    });
  },
});
