import { escapeNote, type GlobOptions } from '../lib/glob.js';

/**
 * Text blocks for globs that use "\" where "/" was probably meant (on a system where "\"
 * escapes), so that a glob that matched or left out nothing because of it says why.
 */
export function escapeNotes(globs: readonly string[], options: GlobOptions): { type: 'text'; text: string }[] {
  const notes = new Set<string>();
  for (const glob of globs) {
    const note = escapeNote(glob, options.platform);
    if (note) notes.add(`(note: ${note})`);
  }
  return [...notes].map((text) => ({ type: 'text' as const, text }));
}
