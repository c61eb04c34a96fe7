import { z } from 'zod';
import { defineTool } from '../context.js';
import { repoPath, repository, git, commitLink, branchLink } from './common.js';
import { parseLog, LOG_FORMAT } from '../lib/parse.js';
import { withMessageFile } from '../lib/message-file.js';

export const gitCommit = defineTool({
  name: 'git_commit',
  title: 'Commit',
  description: 'Record the staged changes as a new commit with the given message. No hook runs and nothing is signed.',
  input: z.object({ repo_path: repoPath, message: z.string().min(1).describe('Commit message') }),
  output: z.object({ repository, commit: z.string(), branch: z.string().nullable(), subject: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  render: (out) => `Changes committed successfully with hash ${out.commit}`,
  async handler({ repo_path, message }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    return ctx.git.exclusive(repo, async () => {
      // The message goes through a file (-F): it is never an argument, so never an option.
      await withMessageFile(message, (file) => git(ctx, repo, ['commit', '--no-verify', '--no-gpg-sign', '--cleanup=verbatim', '-F', file]));
      const [commit] = parseLog((await git(ctx, repo, ['log', '-1', LOG_FORMAT])).stdout.toString());
      const branch = (await git(ctx, repo, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okCodes: [1] })).stdout.toString().trim() || null;
      const links = [commitLink(ctx, repo, commit)];
      if (branch) links.push(branchLink(ctx, repo, branch));
      return ctx.result({ repository: repo.root, commit: commit.commit, branch, subject: commit.subject }, links);
    });
  },
});
