import { z } from 'zod';
import { defineTool } from '../context.js';
import { ArgumentError } from '../lib/validate.js';
import { repoPath, repository, git, commitLink } from './common.js';
import { askThenLock, lookAtWorktree } from './ask-then-lock.js';

const entrySchema = z.object({ index: z.number().int(), ref: z.string(), commit: z.string(), message: z.string() });

export const gitStash = defineTool({
  name: 'git_stash',
  title: 'Stash',
  description:
    "Stash work in progress: 'list' the stashes, 'push' the current changes (optionally with a message and untracked files), " +
    "or 'pop' the newest (or index) stash back onto the work tree. Popping onto uncommitted changes asks the user first.",
  input: z.object({
    repo_path: repoPath,
    action: z.enum(['list', 'push', 'pop']),
    message: z.string().optional().describe('push: a message for the stash'),
    include_untracked: z.boolean().default(false).describe('push: also stash untracked files'),
    index: z.number().int().min(0).optional().describe('pop: which stash (0 = newest)'),
  }),
  output: z.object({ repository, action: z.enum(['list', 'push', 'pop']), stashes: z.array(entrySchema), changed: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  render: (out) =>
    out.action === 'list'
      ? out.stashes.map((s) => `${s.ref}: ${s.message}`).join('\n') || 'No stashes.'
      : `${out.action === 'push' ? (out.changed ? 'Stashed' : 'No local changes to save') : 'Popped'}. ${out.stashes.length} stash(es) left.`,
  async handler({ repo_path, action, message, include_untracked, index }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const list = async () =>
      (await git(ctx, repo, ['stash', 'list', '--format=%gd%x1f%H%x1f%gs'])).stdout
        .toString('utf8')
        .split('\n')
        .filter(Boolean)
        .map((row, i) => {
          const [ref, commit, msg] = row.split('\x1f');
          return { index: i, ref, commit, message: msg };
        });
    if (action === 'list') {
      const stashes = await list();
      return ctx.result({ repository: repo.root, action, stashes, changed: false }, stashes.slice(0, 50).map((s) => commitLink(ctx, repo, { commit: s.commit, subject: s.message })));
    }
    if (action === 'push') {
      return ctx.git.exclusive(repo, async () => {
        const before = (await list()).length;
        await git(ctx, repo, ['stash', 'push', ...(include_untracked ? ['--include-untracked'] : []), ...(message !== undefined ? [`--message=${message}`] : [])]);
        const stashes = await list();
        return ctx.result({ repository: repo.root, action, stashes, changed: stashes.length > before });
      });
    }
    const which = index ?? 0;
    // Asked before the lock, checked again under it (ask-then-lock.ts): the work tree, and
    // which stash is at that index (another session's push renumbers them).
    return askThenLock(ctx, repo, {
      look: async (again) => {
        const stashes = await list();
        if (which >= stashes.length) throw new ArgumentError(`There is no stash ${which} (${stashes.length} stash(es)). Use action 'list'.`);
        const worktree = await lookAtWorktree(
          ctx,
          repo,
          again ? undefined : (files, described) => `Pop stash@{${which}} ("${stashes[which].message}") onto ${files.length} uncommitted change(s) in ${repo.root} (${described})? Conflicts may need resolving by hand.`,
        );
        return { ...worktree, key: `${stashes[which].commit}\0${worktree.key}` };
      },
      declined: 'The user declined; the stash was not applied.',
      changed:
        `The work tree or the stashes of ${repo.root} changed before the stash could be popped (someone else changed them meanwhile, perhaps while the user was being asked): ` +
        "nothing was applied. Look at git_status and action 'list' again, then call again.",
      act: async () => {
        await git(ctx, repo, ['stash', 'pop', '--quiet', `stash@{${which}}`]);
        return ctx.result({ repository: repo.root, action, stashes: await list(), changed: true });
      },
    });
  },
});
