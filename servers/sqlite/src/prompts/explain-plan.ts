import { z } from 'zod';
import { userMessage } from '@mcp-reference/shared';
import { definePrompt } from '../context.js';
import { planTree, renderPlan, type PlanStep } from '../lib/plan-tree.js';

export const explainPlan = definePrompt({
  name: 'explain_plan',
  title: 'Explain a query plan',
  description: 'Explain how SQLite runs a query, with its plan embedded, and suggest indexes or rewrites.',
  args: z.object({ query: z.string().describe('One SQL statement') }),
  async handler({ query }, ctx) {
    const { steps } = await ctx.engine.call<{ steps: PlanStep[] }>('explain', { sql: query }, { signal: ctx.signal });
    return {
      description: 'Explain a query plan',
      messages: [
        userMessage(
          `Explain how SQLite runs this query and whether it could be faster (indexes, rewrites):\n\n\`\`\`sql\n${query}\n\`\`\`\n\nIts plan:\n\n\`\`\`\nQUERY PLAN\n${renderPlan(planTree(steps))}\n\`\`\``,
        ),
      ],
    };
  },
});
