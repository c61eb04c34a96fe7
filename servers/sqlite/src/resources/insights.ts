import { textContents } from '@mcp-reference/shared';
import { defineResource } from '../context.js';
import { INSIGHTS_URI } from '../lib/uris.js';

export const insightsResource = defineResource({
  uri: INSIGHTS_URI,
  name: 'insights',
  title: 'Business insights memo',
  description: 'A memo of the insights added with append_insight. Subscribe to hear when one is added.',
  mimeType: 'text/plain',
  read: (ctx) => [textContents(INSIGHTS_URI, ctx.insights.memo())],
});
