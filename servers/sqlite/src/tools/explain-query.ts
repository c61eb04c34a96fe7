import { z } from 'zod';
import { defineTool } from '../context.js';
import { paramsSchema } from '../query-result.js';
import { planTree, renderPlan, type PlanNode, type PlanStep } from '../lib/plan-tree.js';

const planNode: z.ZodType<PlanNode> = z.lazy(() => z.object({ detail: z.string(), children: z.array(planNode) }));

export const explainQuery = defineTool({
  name: 'explain_query',
  title: 'Explain a query plan',
  description: 'The query plan SQLite would use for one statement (EXPLAIN QUERY PLAN), as a tree: which indexes it uses, where it scans.',
  input: z.object({ query: z.string().describe('One SQL statement'), params: paramsSchema }),
  output: z.object({ plan: z.array(planNode) }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) => `QUERY PLAN\n${renderPlan(out.plan)}`,
  async handler({ query, params }, ctx) {
    const { steps } = await ctx.engine.call<{ steps: PlanStep[] }>('explain', { sql: query, params }, { signal: ctx.signal });
    return ctx.result({ plan: planTree(steps) });
  },
});
