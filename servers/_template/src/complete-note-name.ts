import { filterByPrefix, type BaseContext } from '@mcp-reference/shared';
import type { NotesContext } from './context.js';
import { listNotes } from './lib/notes.js';

/** Note names starting with what was typed: used by the note template and the prompt. */
export async function completeNoteName(typed: string, ctx: BaseContext & NotesContext): Promise<string[]> {
  const names: string[] = [];
  for await (const note of listNotes(ctx.dir)) names.push(note.name);
  return filterByPrefix(names, typed);
}
