import { z } from 'zod';
import { defineTool } from '../context.js';
import { ArgumentError, workTreePath } from '../lib/validate.js';
import { repoPath, repository, git } from './common.js';

export const gitAdd = defineTool({
  name: 'git_add',
  title: 'Add',
  description:
    'Stage files for the next commit. Paths are relative to the repository top (or absolute inside it); "." stages everything; ' +
    'a glob ("*.txt", "src/*.ts") matches as in git add ("*" also crosses "/"). Paths outside the work tree are refused.',
  input: z.object({ repo_path: repoPath, files: z.array(z.string()).min(1).describe('Files, directories or globs to stage') }),
  output: z.object({ repository, staged: z.array(z.string()).describe('The paths given to git add, relative to the repository top') }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  render: (out) => `Files staged successfully: ${out.staged.join(', ')}`,
  async handler({ repo_path, files }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const paths: string[] = [];
    for (const file of files) {
      const relative = await workTreePath(repo, file);
      // ":(top)", ":(exclude)"... would reach past the checks above; a glob stays inside the path it starts from.
      if (relative.startsWith(':')) throw new ArgumentError(`"${file}" is a pathspec with magic (":..."); give a path or a glob.`);
      paths.push(relative);
    }
    return ctx.git.exclusive(repo, async () => {
      // After `--`: a path is never an option. Globs match as git add matches them.
      await git(ctx, repo, ['add', '--', ...paths]);
      return ctx.result({ repository: repo.root, staged: paths });
    });
  },
});
