import { z } from 'zod';
import { definePrompt } from '../context.js';
import { completePath } from '../complete-path.js';

export const reviewRecentEdits = definePrompt({
  name: 'review_recent_edits',
  title: 'Review recent edits',
  description: 'Ask for a review of the diffs of the latest edits made through this server (optionally only under one path).',
  args: z.object({
    path: z.string().optional().describe('Only edits of this file or under this directory'),
  }),
  complete: { path: (typed, ctx) => completePath(typed, ctx) },
  async handler({ path }, ctx) {
    // The record is shared by every session of the server; each sees only the edits
    // inside its own allowed directories (its roots may be narrower than another's).
    const allowed = await ctx.policy.scope().catch(() => undefined);
    const edits = ctx.recentEdits.list(
      (edit) =>
        allowed?.holds(edit.path) === true &&
        (path === undefined || edit.path === path || edit.path.startsWith(`${path.replace(/\/$/, '')}/`)),
    );
    const body = edits.length
      ? edits.map((edit) => `### ${edit.path} (${edit.at})\n\`\`\`diff\n${edit.diff}\n\`\`\``).join('\n\n')
      : '(No edits have been made through this server yet.)';
    return {
      description: `Review ${edits.length} recent edit(s)`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Review these edits for mistakes, unintended changes and missing follow-ups (tests, docs, callers).\n\n${body}`,
          },
        },
      ],
    };
  },
});
