import { z } from 'zod';
import { userMessage } from '@mcp-reference/shared';
import { definePrompt } from '../context.js';
import { completeTableName } from '../complete-names.js';
import { findTable } from '../lib/schema.js';

export const answerQuestion = definePrompt({
  name: 'answer_question',
  title: 'Answer a question with SQL',
  description: 'Write and run a query that answers a question over chosen tables (comma-separated), given their schema.',
  args: z.object({
    question: z.string().describe('The question to answer from the data'),
    tables: z.string().describe('Tables to use, comma-separated'),
  }),
  complete: {
    // Completes the last name of the comma-separated list.
    async tables(typed, ctx) {
      const cut = typed.lastIndexOf(',');
      const head = cut < 0 ? '' : typed.slice(0, cut + 1);
      const names = await completeTableName(typed.slice(cut + 1).trimStart(), ctx);
      return names.map((name) => head + (head ? ' ' : '') + name);
    },
  },
  async handler({ question, tables }, ctx) {
    const schema = await ctx.schema(ctx.signal);
    const chosen = tables.split(',').map((t) => t.trim()).filter(Boolean).map((t) => findTable(schema, t));
    const ddl = chosen.map((t) => t.sql ?? `-- ${t.name}`).join(';\n');
    return {
      description: `Answer: ${question}`,
      messages: [
        userMessage(
          `Answer this question from the database: ${question}\n\nUse these tables:\n\n\`\`\`sql\n${ddl}\n\`\`\`\n\n` +
            'Write one SELECT, bind any literal values with params, run it with read_query, and explain the answer. If the plan matters, check it with explain_query.',
        ),
      ],
    };
  },
});
