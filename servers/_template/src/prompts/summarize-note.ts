import { z } from 'zod';
import { ToolError } from '@mcp-reference/shared';
import { filterByPrefix } from '@mcp-reference/shared';
import { definePrompt } from '../context.js';
import { completeNoteName } from '../complete-note-name.js';
import { readNote } from '../lib/notes.js';
import { noteUri } from '../lib/notes-uri.js';

export const summarizeNote = definePrompt({
  name: 'summarize_note',
  title: 'Summarise a note',
  description: 'Ask for a summary of one note, with the note embedded.',
  args: z.object({
    name: z.string().describe('The note to summarise'),
    style: z.string().optional().describe('bullet points or prose'),
  }),
  complete: {
    name: completeNoteName,
    style: (typed) => filterByPrefix(['bullet points', 'prose'], typed),
  },
  async handler({ name, style }, ctx) {
    const text = await readNote(ctx.dir, name);
    if (text === undefined) throw new ToolError(`There is no note named "${name}". Complete the name, or list the notes with resources/list.`);
    return {
      description: `Summarise note ${name}`,
      messages: [
        { role: 'user', content: { type: 'text', text: `Summarise this note${style ? ` as ${style}` : ''}.` } },
        { role: 'user', content: ctx.embed({ uri: noteUri(name), mimeType: 'text/markdown', text }) },
      ],
    };
  },
});
