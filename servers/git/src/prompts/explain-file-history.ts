import { z } from 'zod';
import { userMessage } from '@mcp-reference/shared';
import { definePrompt } from '../context.js';
import { completeRepoPath, completeTreePath } from '../resources/complete.js';
import { treePath } from '../lib/validate.js';

export const explainFileHistory = definePrompt({
  name: 'explain_file_history',
  title: 'Explain the history of a file',
  description: 'Explain how a file came to be what it is, from its commits and their changes.',
  args: z.object({ repo_path: z.string().describe('The repository'), path: z.string().describe('The file, relative to the repository top') }),
  complete: { repo_path: completeRepoPath, path: completeTreePath },
  async handler({ repo_path, path }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const file = treePath(path);
    const { stdout, truncated } = await ctx.git.run(
      repo,
      ['log', '--follow', '--max-count=30', '-p', '--no-ext-diff', '--no-textconv', '--no-color', '--format=commit %H%nAuthor: %an%nDate: %aI%n%n%B', '--', file],
      { signal: ctx.signal, maxBytes: Math.min(ctx.maxOutputBytes, 300_000), literalPathspecs: true },
    );
    return {
      description: `History of ${file}`,
      messages: [
        userMessage(
          `Explain the history of ${file} in ${repo.root}: why it was created, the main turns it took and who drove them, and what that suggests about changing it now.\n\n` +
            `${stdout.toString('utf8') || '(no commits touch this path)'}${truncated ? '\n[history truncated]' : ''}`,
        ),
      ],
    };
  },
});
