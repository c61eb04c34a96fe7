import { z } from 'zod';
import { defineTool } from '../context.js';

export const listAllowedDirectories = defineTool({
  name: 'list_allowed_directories',
  title: 'List Allowed Directories',
  description:
    'The directories this server may access (subdirectories included): the command-line directories, narrowed by the client roots when it has some. ' +
    'Use it before accessing files.',
  input: z.object({}),
  output: z.object({ directories: z.array(z.string()) }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    out.directories.length
      ? `Allowed directories:\n${out.directories.join('\n')}`
      : 'No directory is allowed: start the server with DIR arguments, or use a client that provides roots.',
  async handler(_args, ctx) {
    const directories = await ctx.policy.allowed().catch(() => []);
    return ctx.result({ directories });
  },
});
