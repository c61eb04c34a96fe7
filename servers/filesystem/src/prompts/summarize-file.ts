import { z } from 'zod';
import { definePrompt } from '../context.js';
import { completePath } from '../complete-path.js';
import { readFileContents } from '../resources/file.js';

export const summarizeFile = definePrompt({
  name: 'summarize_file',
  title: 'Summarise a file',
  description: 'Ask for a summary of one file, with the file embedded (text as text, binary content as base64 with its MIME type).',
  args: z.object({
    path: z.string().describe('Absolute path of the file'),
    focus: z.string().optional().describe('What the summary should pay attention to'),
  }),
  complete: { path: (typed, ctx) => completePath(typed, ctx) },
  async handler({ path, focus }, ctx) {
    const contents = await readFileContents(path, ctx);
    const binary = 'blob' in contents;
    const ask = binary
      ? `The file below is binary (${contents.mimeType}). Say what it is and what can be told about it${focus ? `, focusing on ${focus}` : ''}.`
      : `Summarise the file below${focus ? `, focusing on ${focus}` : ''}. Keep it short and concrete.`;
    return {
      description: `Summarise ${path}`,
      messages: [
        { role: 'user', content: { type: 'text', text: ask } },
        { role: 'user', content: ctx.embed(contents) },
      ],
    };
  },
});
