import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { nodeCrypto } from '@mcp-reference/shared/core';

/** A note is a `NAME.md` file directly inside the notes directory. */
export interface Note {
  name: string;
  file: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,99}$/;

export class NoteError extends Error {
  override name = 'NoteError';
}

/** Note names are plain file names: no separators, no `..`, so they cannot leave the directory. */
export function assertNoteName(name: string): void {
  if (!NAME.test(name) || name.includes('..')) {
    throw new NoteError(
      `Invalid note name "${name}": use 1-100 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit.`,
    );
  }
}

export function notePath(dir: string, name: string): string {
  assertNoteName(name);
  return path.join(dir, `${name}.md`);
}

/** Note names in a stable (codepoint) order, strictly after `after` when given. */
export async function* listNotes(dir: string, after?: string): AsyncGenerator<Note> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const names = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => entry.name.slice(0, -3))
    .filter((name) => NAME.test(name))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    if (after !== undefined && name <= after) continue;
    yield { name, file: path.join(dir, `${name}.md`) };
  }
}

export async function readNote(dir: string, name: string): Promise<string | undefined> {
  try {
    return await readFile(notePath(dir, name), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes a note atomically: a temp file in the same directory, then rename. */
export async function writeNote(dir: string, name: string, text: string): Promise<{ file: string; created: boolean; bytes: number }> {
  const file = notePath(dir, name);
  await mkdir(dir, { recursive: true });
  const created = !(await stat(file).catch(() => undefined));
  const temp = path.join(dir, `.${name}.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { file, created, bytes: Buffer.byteLength(text) };
}

export interface NoteMatch {
  name: string;
  line: number;
  text: string;
}

/** Case-insensitive search of every note, line by line, in note order. */
export async function* searchNotes(dir: string, query: string, signal?: AbortSignal): AsyncGenerator<NoteMatch> {
  const needle = query.toLowerCase();
  for await (const note of listNotes(dir)) {
    signal?.throwIfAborted();
    const lines = (await readFile(note.file, 'utf8')).split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].toLowerCase().includes(needle)) yield { name: note.name, line: i + 1, text: lines[i] };
    }
  }
}
