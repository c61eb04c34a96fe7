import { z } from 'zod';
import { definePrompt } from '../context.js';
import { completePath } from '../complete-path.js';

export const findDefinition = definePrompt({
  name: 'find_definition',
  title: 'Find where something is defined',
  description: 'Ask to locate the definition of a symbol under a directory, using grep_files and read_text_file.',
  args: z.object({
    symbol: z.string().describe('Function, class, variable or setting name'),
    directory: z.string().optional().describe('Directory to search (default: every allowed directory)'),
  }),
  complete: { directory: (typed, ctx) => completePath(typed, ctx, 'directory') },
  async handler({ symbol, directory }, ctx) {
    const where = directory ?? (await ctx.policy.scope()).describe(', ');
    return {
      description: `Find the definition of ${symbol}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Find where \`${symbol}\` is defined under ${where}.\n` +
              `1. Call grep_files with a pattern that matches a definition (for example "(function|class|const|let|var|def|type|interface)\\s+${symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b") and path ${directory ?? 'each allowed directory'}.\n` +
              '2. Open the most likely match with read_text_file using start_line/end_line around it.\n' +
              '3. Answer with the file, the line, and the definition itself; mention other candidates if there are several.',
          },
        },
      ],
    };
  },
});
