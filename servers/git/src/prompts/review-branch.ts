import { z } from 'zod';
import { userMessage } from '@mcp-reference/shared';
import { definePrompt } from '../context.js';
import { completeRefs, completeRepoPath } from '../resources/complete.js';
import { commitOf } from '../lib/validate.js';
import { LOG_FORMAT, parseLog } from '../lib/parse.js';

export const reviewBranch = definePrompt({
  name: 'review_branch',
  title: 'Review a branch',
  description: 'Review the commits and the diff of a branch against a base branch (default: main or master).',
  args: z.object({
    repo_path: z.string().describe('The repository'),
    branch: z.string().describe('The branch to review'),
    base: z.string().optional().describe('The branch it will merge into'),
  }),
  complete: { repo_path: completeRepoPath, branch: completeRefs(['heads', 'remotes']), base: completeRefs(['heads', 'remotes']) },
  async handler({ repo_path, branch, base }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const head = await commitOf(repo, branch, ctx.signal);
    let baseName = base;
    if (baseName === undefined) {
      for (const candidate of ['main', 'master']) {
        if (await commitOf(repo, candidate, ctx.signal).then(() => true, () => false)) {
          baseName = candidate;
          break;
        }
      }
    }
    if (baseName === undefined) throw new Error('No base given and neither main nor master exists; pass base.');
    const baseCommit = await commitOf(repo, baseName, ctx.signal);
    const range = `${baseCommit}...${head}`;
    const [log, diff] = await Promise.all([
      ctx.git.run(repo, ['log', LOG_FORMAT, '--max-count=100', '--end-of-options', `${baseCommit}..${head}`], { signal: ctx.signal }),
      ctx.git.run(repo, ['diff', '--no-ext-diff', '--no-textconv', '--no-color', '--end-of-options', range], {
        signal: ctx.signal,
        maxBytes: Math.min(ctx.maxOutputBytes, 300_000),
      }),
    ]);
    const commits = parseLog(log.stdout.toString('utf8'));
    return {
      description: `Review of ${branch} against ${baseName}`,
      messages: [
        userMessage(
          `Review branch ${branch} of ${repo.root} before it merges into ${baseName}. Point out bugs, risky changes, missing tests and unclear names; ` +
            `say what is good too.\n\nCommits (${commits.length}):\n${commits.map((c) => `- ${c.commit.slice(0, 10)} ${c.subject}`).join('\n')}\n\n` +
            `\`\`\`diff\n${diff.stdout.toString('utf8')}${diff.truncated ? '\n[diff truncated]' : ''}\n\`\`\``,
        ),
      ],
    };
  },
});
