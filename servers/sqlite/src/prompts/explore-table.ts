import { z } from 'zod';
import { userMessage } from '@mcp-reference/shared';
import { definePrompt } from '../context.js';
import { completeColumnName, completeTableName } from '../complete-names.js';
import { findTable } from '../lib/schema.js';
import { tableUri } from '../lib/uris.js';

export const exploreTable = definePrompt({
  name: 'explore_table',
  title: 'Explore a table',
  description: 'Explore a table: what it holds, its value distributions and its relations, optionally focused on one column.',
  args: z.object({
    table: z.string().describe('The table to explore'),
    column: z.string().optional().describe('A column to focus on'),
  }),
  complete: { table: completeTableName, column: completeColumnName },
  async handler({ table, column }, ctx) {
    const found = findTable(await ctx.schema(ctx.signal), table);
    const columns = found.columns.map((c) => `${c.name} ${c.type}`.trim()).join(', ');
    return {
      description: `Explore ${found.name}`,
      messages: [
        userMessage(
          `Explore the ${found.type} "${found.name}" (columns: ${columns}). ` +
            (column ? `Focus on the column "${column}": its distinct values, nulls, range and outliers. ` : 'Describe what a row represents, the value distributions of the key columns and how the table relates to others. ') +
            'Use sample_rows and read_query (aggregate rather than reading every row), and summarise what you found.',
        ),
        { role: 'user', content: ctx.link(tableUri(found.name), { name: found.name, mimeType: 'application/json' }) },
      ],
    };
  },
});
