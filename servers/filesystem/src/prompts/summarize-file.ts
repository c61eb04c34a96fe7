import { z } from 'zod';
import { definePrompt } from '../context.js';
import { completePath } from '../complete-path.js';
import { readWhole } from '../lib/read-text.js';
import { fileUri } from '../lib/file-uri.js';

export const summarizeFile = definePrompt({
  name: 'summarize_file',
  title: 'Summarise a file',
  description: 'Ask for a summary of one text file, with the file embedded.',
  args: z.object({
    path: z.string().describe('Absolute path of the file'),
    focus: z.string().optional().describe('What the summary should pay attention to'),
  }),
  complete: { path: (typed, ctx) => completePath(typed, ctx) },
  async handler({ path, focus }, ctx) {
    const real = await ctx.policy.resolveFile(path);
    const text = await readWhole(real, ctx.maxReadBytes);
    return {
      description: `Summarise ${path}`,
      messages: [
        { role: 'user', content: { type: 'text', text: `Summarise the file below${focus ? `, focusing on ${focus}` : ''}. Keep it short and concrete.` } },
        { role: 'user', content: ctx.embed({ uri: fileUri(real), mimeType: 'text/plain', text }) },
      ],
    };
  },
});
