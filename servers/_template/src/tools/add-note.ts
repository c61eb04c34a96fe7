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
    const seen = await readNote(ctx.dir, name);
    // The answer is about this note as it is now (`subject`): on 2026-07-28, where the call runs
    // again from the top with the answer, a note changed in between is asked about again.
    if (seen !== undefined && !(await ctx.confirm(`Replace the existing note "${name}"?`, { subject: seen }))) {
      return ctx.error(`The user declined to replace note "${name}". Choose another name or ask the user.`);
    }
    // A person may take minutes to answer, and nothing is locked meanwhile: what they agreed to
    // replace is the note as it was when they were asked. One that changed (or appeared) since
    // is someone else's work, kept.
    if ((await readNote(ctx.dir, name)) !== seen) {
      return ctx.error(`Note "${name}" was ${seen === undefined ? 'created' : 'changed'} by someone else meanwhile, so it was not replaced. Read it, then call again if it should still be replaced.`);
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
