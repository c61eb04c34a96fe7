import { textContents } from '@mcp-reference/shared';
import { defineResource } from '../context.js';
import { schemaSql } from '../lib/schema.js';
import { SCHEMA_URI } from '../lib/uris.js';

export const schemaResource = defineResource({
  uri: SCHEMA_URI,
  name: 'schema',
  title: 'Database schema',
  description: 'The CREATE statements of every table, view, index and trigger. Subscribe to hear about schema changes.',
  mimeType: 'application/sql',
  read: async (ctx) => [textContents(SCHEMA_URI, schemaSql(await ctx.schema(ctx.signal)), 'application/sql')],
});
