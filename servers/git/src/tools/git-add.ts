import { z } from 'zod';
import { defineTool } from '../context.js';
import { workTreePath } from '../lib/validate.js';
import { repoPath, repository, git } from './common.js';

export const gitAdd = defineTool({
  name: 'git_add',
  title: 'Add',
  description:
    'Stage files for the next commit. Paths are relative to the repository top (or absolute inside it); "." stages everything. ' +
    'Paths outside the work tree are refused.',
  input: z.object({ repo_path: repoPath, files: z.array(z.string()).min(1).describe('Files or directories to stage') }),
  output: z.object({ repository, staged: z.array(z.string()).describe('The paths given to git add, relative to the repository top') }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  render: (out) => `Files staged successfully: ${out.staged.join(', ')}`,
  async handler({ repo_path, files }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const paths: string[] = [];
    for (const file of files) paths.push(await workTreePath(repo, file));
    return ctx.git.exclusive(repo, async () => {
      // After `--`, with literal pathspecs: a path is never an option and never a glob or :(magic).
      await git(ctx, repo, ['add', '--', ...paths], { literalPathspecs: true });
      return ctx.result({ repository: repo.root, staged: paths });
    });
  },
});
