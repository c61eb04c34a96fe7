import { z } from 'zod';
import { defineTool } from '../context.js';
import { INSIGHTS_URI } from '../lib/uris.js';

export const appendInsight = defineTool({
  name: 'append_insight',
  title: 'Append an insight',
  description: 'Add a business insight to the memo (resource memo://insights): at most 10,000 characters each, 1,000,000 in all.',
  input: z.object({ insight: z.string().min(1).describe('Business insight discovered from data analysis') }),
  output: z.object({ count: z.number().int(), uri: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  render: () => 'Insight added to memo',
  handler({ insight }, ctx) {
    ctx.insights.add(insight);
    ctx.notifyUpdated(INSIGHTS_URI);
    return ctx.result({ count: ctx.insights.all.length, uri: INSIGHTS_URI }, [ctx.link(INSIGHTS_URI, { name: 'insights', mimeType: 'text/plain' })]);
  },
});
