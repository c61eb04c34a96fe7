import { z } from 'zod';
import { defineTool } from '../context.js';
import { readNote, writeNote } from '../lib/notes.js';
import { noteUri } from '../lib/notes-uri.js';

export const addNote = defineTool({
  name: 'add_note',
  title: 'Add or replace a note',
  description:
    'Write a note named NAME (stored as NAME.md). Replacing an existing note asks the user first when the client supports it.',
  input: z.object({
    name: z.string().describe('Note name: letters, digits, spaces, dots, dashes, underscores'),
    text: z.string().describe('The whole note, Markdown'),
  }),
  output: z.object({
    name: z.string(),
    uri: z.string(),
    created: z.boolean().describe('false when an existing note was replaced'),
    bytes: z.number().int(),
  }),
  annotations: { destructiveHint: true, idempotentHint: true },
  render: (out) => `${out.created ? 'Created' : 'Replaced'} note ${out.name} (${out.bytes} bytes): ${out.uri}`,
  async handler({ name, text }, ctx) {
    if ((await readNote(ctx.dir, name)) !== undefined && !(await ctx.confirm(`Replace the existing note "${name}"?`))) {
      return ctx.error(`The user declined to replace note "${name}". Choose another name or ask the user.`);
    }
    const written = await writeNote(ctx.dir, name, text);
    const uri = noteUri(name);
    ctx.notifyUpdated(uri);
    if (written.created) ctx.notifyResourceListChanged();
    return ctx.result({ name, uri, created: written.created, bytes: written.bytes }, [
      ctx.link(uri, { name, mimeType: 'text/markdown' }),
    ]);
  },
});
