import { z } from 'zod';
import { userMessage } from '@mcp-reference/shared';
import { definePrompt } from '../context.js';
import { completeRepoPath } from '../resources/complete.js';

export const commitMessage = definePrompt({
  name: 'commit_message',
  title: 'Write a commit message',
  description: 'Write a commit message for the staged changes of a repository.',
  args: z.object({ repo_path: z.string().describe('The repository') }),
  complete: { repo_path: completeRepoPath },
  async handler({ repo_path }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const { stdout, truncated } = await ctx.git.run(repo, ['diff', '--cached', '--no-ext-diff', '--no-textconv', '--no-color'], {
      signal: ctx.signal,
      maxBytes: Math.min(ctx.maxOutputBytes, 200_000),
    });
    const diff = stdout.toString('utf8');
    if (!diff.trim()) return { description: 'Nothing is staged', messages: [userMessage(`Nothing is staged in ${repo.root}. Stage changes with git_add first.`)] };
    return {
      description: `Commit message for the staged changes in ${repo.root}`,
      messages: [
        userMessage(
          'Write a commit message for these staged changes: a summary line of at most 72 characters in the imperative mood, ' +
            `a blank line, then what changed and why, wrapped at 72 columns.\n\n\`\`\`diff\n${diff}${truncated ? '\n[diff truncated]' : ''}\n\`\`\``,
        ),
      ],
    };
  },
});
