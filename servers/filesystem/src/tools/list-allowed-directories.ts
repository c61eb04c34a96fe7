import { z } from 'zod';
import { defineTool } from '../context.js';

export const listAllowedDirectories = defineTool({
  name: 'list_allowed_directories',
  title: 'List Allowed Directories',
  description:
    'The directories this server may access (subdirectories included): the command-line directories, narrowed by the client roots when it has some. ' +
    'Use it before accessing files.',
  input: z.object({}),
  output: z.object({
    directories: z.array(z.string()),
    reason: z.string().optional().describe('Why no directory is allowed, when none is'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    out.directories.length
      ? `Allowed directories:\n${out.directories.join('\n')}`
      : (out.reason ?? 'No directory is allowed: start the server with DIR arguments, or use a client that provides roots.'),
  async handler(_args, ctx) {
    try {
      return ctx.result({ directories: await ctx.policy.allowed() });
    } catch (error) {
      return ctx.result({ directories: [], reason: error instanceof Error ? error.message : String(error) });
    }
  },
});
