import { z } from 'zod';
import { defineTool } from '../context.js';
import { repoPath, repository, git } from './common.js';
import { parseStatus } from '../lib/parse.js';

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
    return ctx.git.exclusive(repo, async () => {
      const status = parseStatus((await git(ctx, repo, ['status', '--porcelain=v2', '-z', '--untracked-files=no'])).stdout.toString());
      const staged = status.files.filter((f) => f.staged).map((f) => f.path);
      if (!hard) {
        await git(ctx, repo, ['reset', '--quiet']);
        return ctx.result({ repository: repo.root, mode: 'mixed' as const, unstaged: staged, discarded: [] });
      }
      const changed = status.files.map((f) => f.path);
      if (changed.length > 0 && !(await ctx.confirm(`Discard uncommitted changes to ${changed.length} file(s) in ${repo.root} (${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', ...' : ''})?`))) {
        return ctx.error('The user declined; nothing was reset.');
      }
      await git(ctx, repo, ['reset', '--hard', '--quiet']);
      return ctx.result({ repository: repo.root, mode: 'hard' as const, unstaged: staged, discarded: changed });
    });
  },
});
