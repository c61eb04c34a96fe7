import { resourceNotFound, textContents } from '@mcp-reference/shared';
import { defineResourceTemplate } from '../context.js';
import { completeNoteName } from '../complete-note-name.js';
import { listNotes, readNote, assertNoteName, NoteError } from '../lib/notes.js';
import { NOTE_TEMPLATE, noteNameFromUri, noteUri } from '../lib/notes-uri.js';

export const noteTemplate = defineResourceTemplate({
  uriTemplate: NOTE_TEMPLATE,
  name: 'note',
  title: 'Note',
  description: 'One note, as Markdown. Subscribe to hear when it changes on disk.',
  mimeType: 'text/markdown',
  complete: {
    name: completeNoteName,
  },
  async *list(after, ctx) {
    const afterName = after === undefined ? undefined : noteNameFromUri(after);
    for await (const note of listNotes(ctx.dir, afterName)) {
      yield { uri: noteUri(note.name), name: note.name, mimeType: 'text/markdown' };
    }
  },
  async read(uri, { name }, ctx) {
    try {
      assertNoteName(name);
    } catch (error) {
      if (error instanceof NoteError) throw resourceNotFound(uri, error.message);
      throw error;
    }
    const text = await readNote(ctx.dir, name);
    if (text === undefined) throw resourceNotFound(uri, 'List notes with resources/list.');
    return [textContents(uri, text, 'text/markdown')];
  },
});
