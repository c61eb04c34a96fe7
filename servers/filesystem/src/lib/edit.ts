import { codePointBoundary } from '@mcp-reference/shared/core';
import { FsError } from './errors.js';
import { createTimeSlicer } from './time-slice.js';
import { unifiedDiffOfRegions, type ChangedRegion } from './unified-diff.js';

/**
 * Search-and-replace edits of a file, as edit_file applies them.
 *
 * Matching, per edit, in order (each edit sees the result of the previous ones):
 * 1. exact: `oldText` occurs verbatim, exactly once;
 * 2. whitespace-tolerant: the lines of `oldText` equal a run of lines of the file once
 *    leading and trailing whitespace is ignored (the official server's fallback); the
 *    replacement is re-indented by the difference between the indentation the model
 *    wrote and the file's real one, so the new lines sit at the file's indentation.
 * Two or more matches are refused (EDIT_AMBIGUOUS) rather than guessing: the official
 * server silently edits the first. No match is refused (EDIT_NO_MATCH) with the
 * nearest near-miss, so the model can correct its oldText instead of re-reading.
 *
 * Bytes: the file is edited as bytes. Everything outside the replaced spans is kept
 * byte for byte: a file that is not valid UTF-8 (a Latin-1 byte somewhere) keeps its
 * bytes, and line endings of untouched lines are never changed. A model's "\n" in
 * oldText also matches "\r\n" (the file's usual ending is tried first), and newText is
 * written with the ending of the lines it replaces.
 *
 * Cost: an exact edit is one search of the file (Buffer.indexOf) plus a move of the
 * bytes after the match; no edit re-splits or copies the whole file unless it falls back
 * to whitespace-tolerant matching. The near-miss diagnostics do a bounded amount of work.
 */
export interface Edit {
  oldText: string;
  newText: string;
}

export interface AppliedEdit {
  /** 1-based line of the file (after the earlier edits) where the match began. */
  line: number;
  match: 'exact' | 'whitespace';
}

export interface EditResult {
  content: string;
  /** Unified diff (LF line endings) of the change; '' when nothing changed. */
  diff: string;
  applied: AppliedEdit[];
}

export interface ByteEditResult {
  content: Buffer;
  diff: string;
  applied: AppliedEdit[];
  /** False when the edits left the bytes as they were. */
  changed: boolean;
}

export interface EditOptions {
  /** Shown in the diff header. */
  path?: string;
  /** Stops the work between edits (it yields to the event loop every ~10 ms). */
  signal?: AbortSignal;
  /** Told how many edits are done, before the first and at each yield. */
  onProgress?: (done: number, total: number) => void;
}

/** Edits of a text given as a string (UTF-8), for callers that hold one. */
export function applyEdits(original: string, edits: readonly Edit[], options: { path?: string } = {}): EditResult {
  const editor = new Editor(Buffer.from(original, 'utf8'));
  edits.forEach((edit, index) => drain(editor.apply(edit, index)));
  const result = drain(editor.finish(options.path ?? 'file'));
  return { content: result.content.toString('utf8'), diff: result.diff, applied: result.applied };
}

/** Edits of a file's bytes; yields to the event loop between edits so a large batch never blocks it. */
export async function applyEditsToBytes(original: Buffer, edits: readonly Edit[], options: EditOptions = {}): Promise<ByteEditResult> {
  const slicer = createTimeSlicer(options.signal);
  options.signal?.throwIfAborted();
  const editor = new Editor(original);
  // Each step is a generator that yields now and then; between its steps the event loop
  // gets a turn every ~10 ms, so pings and other sessions are answered during a big edit.
  const run = async <T>(steps: Generator<void, T>): Promise<T> => {
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      if (slicer.due()) await slicer.pause();
    }
  };
  options.onProgress?.(0, edits.length);
  for (let index = 0; index < edits.length; index++) {
    if (slicer.due()) {
      options.onProgress?.(index, edits.length);
      await slicer.pause();
    }
    await run(editor.apply(edits[index], index));
  }
  return run(editor.finish(options.path ?? 'file'));
}

/** Work that yields now and then (to let a caller slice it), run to the end at once. */
type Steps<T> = Generator<void, T>;

function drain<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** How many items a loop handles between yields. */
const STEP = 8192;

const NEWLINE = 0x0a;
const CR = 0x0d;

/** The file being edited: a growable byte buffer plus what changed, for the diff. */
class Editor {
  private buffer: Buffer;
  private length: number;
  private readonly original: Buffer;
  private readonly crlf: boolean;
  private readonly applied: AppliedEdit[] = [];
  /** Changed spans, sorted, in both the original's and the current bytes' offsets. */
  private regions: ChangedRegion[] = [];
  /** A known line number at an offset, so line numbers cost the distance between edits. */
  private cursor = { offset: 0, line: 1 };

  constructor(original: Buffer) {
    this.original = original;
    this.buffer = Buffer.allocUnsafe(Math.max(64, original.length + (original.length >> 2)));
    original.copy(this.buffer);
    this.length = original.length;
    // allocUnsafe: only bytes below `length` are ever read, and every byte there was written.
    this.crlf = usesCrlf(original);
  }

  private view(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  *apply(edit: Edit, index: number): Steps<void> {
    const label = describeEdit(index, edit.oldText);
    if (edit.oldText === '') {
      // Allowed only as "fill an empty file": anywhere else there is no place to put it.
      if (this.length !== 0) {
        throw new FsError('EDIT_NO_MATCH', `${label} has an empty oldText. Include the lines next to where the new text goes.`);
      }
      this.splice(0, 0, Buffer.from(edit.newText, 'utf8'));
      this.applied.push({ line: 1, match: 'exact' });
      return;
    }
    const oldLf = edit.oldText.replace(/\r\n/g, '\n');
    const newLf = edit.newText.replace(/\r\n/g, '\n');
    const endings = oldLf.includes('\n') ? (this.crlf ? ['\r\n', '\n'] : ['\n', '\r\n']) : [undefined];
    for (const eol of endings) {
      const needle = Buffer.from(eol === undefined ? oldLf : withEol(oldLf, eol), 'utf8');
      const view = this.view();
      const at = view.indexOf(needle);
      if (at === -1) continue;
      if (view.indexOf(needle, at + 1) !== -1) {
        // Ambiguous. Searching again after each match would cost the length of oldText per
        // match (quadratic on a file of identical lines): one linear pass counts them all.
        const { count, first } = yield* countMatches(view, needle, at, SHOWN_MATCHES);
        throw ambiguous(label, first.map((p) => this.lineAt(p)), count);
      }
      const ending = eol ?? this.endingOfLineAt(at + needle.length);
      const line = this.lineAt(at);
      this.splice(at, at + needle.length, Buffer.from(withEol(newLf, ending), 'utf8'));
      this.applied.push({ line, match: 'exact' });
      return;
    }
    yield* this.applyTolerant(label, oldLf, newLf);
  }

  /** The whitespace-tolerant fallback: lines compared with leading and trailing whitespace ignored. */
  private *applyTolerant(label: string, oldLf: string, newLf: string): Steps<void> {
    // Latin-1 maps each byte to one character, so offsets in this string are byte offsets.
    const text = this.view().toString('latin1');
    const lines = text.split('\n');
    // "foo\n" means the line foo with its terminator: match the lines, then take the "\n" too.
    const oldBinary = Buffer.from(oldLf, 'utf8').toString('latin1');
    const oldLines = (oldBinary.endsWith('\n') ? oldBinary.slice(0, -1) : oldBinary).split('\n');
    if (oldLines.every((line) => trimAscii(line) === '')) throw noMatch(label, 'it is only whitespace, which does not match exactly');

    const ids = new Map<string, number>();
    yield;
    const fileKeys = yield* internAll(lines, trimAscii, ids);
    const oldKeys = yield* internAll(oldLines, trimAscii, ids);
    const found = yield* findRuns(fileKeys, oldKeys);
    if (found.length > 1) throw ambiguous(label, found.slice(0, SHOWN_MATCHES).map((i) => i + 1), found.length);
    if (found.length === 0) throw noMatch(label, yield* diagnose(lines, oldLines));

    const first = found[0];
    const lastLine = first + oldLines.length - 1;
    let from = 0;
    for (let i = 0; i < first; i++) {
      from += lines[i].length + 1;
      if (i % STEP === 0) yield;
    }
    let to = from;
    for (let i = first; i < lastLine; i++) to += lines[i].length + 1;
    to += lines[lastLine].length;
    const eol = lines[first].endsWith('\r') && first < lines.length - 1 ? '\r\n' : first < lines.length - 1 ? '\n' : this.crlf ? '\r\n' : '\n';
    // Keep the matched last line's own "\r": the replacement ends where its text ends.
    if (lines[lastLine].endsWith('\r') && lastLine < lines.length - 1) to -= 1;
    if (oldBinary.endsWith('\n') && to < text.length) to += text[to] === '\r' ? 2 : 1;
    const matched = lines.slice(first, lastLine + 1).map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
    const newBinary = Buffer.from(newLf, 'utf8').toString('latin1');
    const replacement = withEol(reindent(newBinary, oldLines, matched), eol);
    const line = this.lineAt(from);
    this.splice(from, to, Buffer.from(replacement, 'latin1'));
    this.applied.push({ line, match: 'whitespace' });
  }

  /** "\r\n" when the line around `offset` ends with one, else "\n" (the file's usual ending at the end). */
  private endingOfLineAt(offset: number): string {
    const view = this.view();
    const next = view.indexOf(NEWLINE, offset);
    if (next === -1) return this.crlf ? '\r\n' : '\n';
    return next > 0 && view[next - 1] === CR ? '\r\n' : '\n';
  }

  private lineAt(offset: number): number {
    const view = this.view();
    let { offset: from, line } = this.cursor;
    if (offset < from) {
      // Closer to count back from the cursor than forward from the start?
      if (from - offset < offset) {
        for (let i = view.lastIndexOf(NEWLINE, from - 1); i !== -1 && i >= offset; i = i > 0 ? view.lastIndexOf(NEWLINE, i - 1) : -1) line--;
        this.cursor = { offset, line };
        return line;
      }
      from = 0;
      line = 1;
    }
    for (let i = view.indexOf(NEWLINE, from); i !== -1 && i < offset; i = view.indexOf(NEWLINE, i + 1)) line++;
    this.cursor = { offset, line };
    return line;
  }

  /** Replaces bytes [from, to) of the current content, moving only the bytes after them. */
  private splice(from: number, to: number, replacement: Buffer): void {
    const delta = replacement.length - (to - from);
    const needed = this.length + delta;
    if (needed > this.buffer.length) {
      const bigger = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(bigger, 0, 0, this.length);
      this.buffer = bigger;
    }
    this.buffer.copyWithin(from + replacement.length, to, this.length);
    replacement.copy(this.buffer, from);
    this.length = needed;
    this.recordChange(from, to, replacement.length);
    // The cursor stays valid: nothing before `from` moved.
    if (this.cursor.offset > from) this.cursor = { offset: 0, line: 1 };
  }

  /** Merges [from, to) -> `inserted` bytes into the changed regions (current offsets before the change). */
  private recordChange(from: number, to: number, inserted: number): void {
    const delta = inserted - (to - from);
    const regions = this.regions;
    let i = 0;
    while (i < regions.length && regions[i].newEnd < from) i++;
    // The shift (current minus original offset) of the unchanged gap that holds `from`.
    const shiftBefore = i > 0 ? regions[i - 1].newEnd - regions[i - 1].oldEnd : 0;
    let j = i;
    while (j < regions.length && regions[j].newStart <= to) j++;
    const merged = regions.slice(i, j);
    const shiftAfter = merged.length > 0 ? merged[merged.length - 1].newEnd - merged[merged.length - 1].oldEnd : shiftBefore;
    const start = merged.length > 0 ? Math.min(from, merged[0].newStart) : from;
    const end = merged.length > 0 ? Math.max(to, merged[merged.length - 1].newEnd) : to;
    const region: ChangedRegion = {
      oldStart: merged.length > 0 && merged[0].newStart <= from ? merged[0].oldStart : start - shiftBefore,
      oldEnd: merged.length > 0 && merged[merged.length - 1].newEnd >= to ? merged[merged.length - 1].oldEnd : end - shiftAfter,
      newStart: start,
      newEnd: end + delta,
    };
    for (let k = j; k < regions.length; k++) {
      regions[k].newStart += delta;
      regions[k].newEnd += delta;
    }
    regions.splice(i, j - i, region);
  }

  *finish(displayPath: string): Steps<ByteEditResult> {
    const content = Buffer.from(this.view());
    const changed = !content.equals(this.original);
    yield;
    const diff = changed
      ? Buffer.from(
          yield* unifiedDiffOfRegions(this.original.toString('latin1'), content.toString('latin1'), this.regions, displayPath),
          'latin1',
        ).toString('utf8')
      : '';
    return { content, diff, applied: this.applied, changed };
  }
}

/**
 * Moves newText from the indentation the model used to the file's real indentation:
 * the base indent of oldText (its first non-blank line) is swapped for the indent of
 * the matched line, keeping each line's indentation relative to that base.
 *
 * When the model indents with other characters than the file (spaces for a file
 * indented with tabs, or the reverse), swapping the base alone would mix them ("\t" then
 * "    "): then indentation is counted in levels (a tab, or the model's and the file's
 * step of spaces) and written with the file's characters. An indentation oldText used is
 * written as the matched line has it.
 */
function reindent(newText: string, oldLines: readonly string[], matched: readonly string[]): string {
  const anchor = oldLines.findIndex((line) => trimAscii(line) !== '');
  const oldBase = indentOf(oldLines[anchor]);
  const fileBase = indentOf(matched[anchor]);
  const newLines = newText.split('\n');
  const nonBlank = (lines: readonly string[]) => lines.filter((line) => trimAscii(line) !== '').map(indentOf);
  const modelUnit = unitOf([...nonBlank(oldLines), ...nonBlank(newLines)]);
  const fileUnit = unitOf(nonBlank(matched));
  // Only tabs against spaces: between two widths of spaces the relative columns the model wrote are kept.
  if (modelUnit !== undefined && fileUnit !== undefined && (modelUnit === '\t') !== (fileUnit === '\t')) {
    // How the file writes each indentation oldText used.
    const known = new Map<string, string>();
    oldLines.forEach((line, i) => {
      if (trimAscii(line) !== '' && i < matched.length && !known.has(indentOf(line))) known.set(indentOf(line), indentOf(matched[i]));
    });
    const baseLevel = levelsOf(fileBase, fileUnit).levels - levelsOf(oldBase, modelUnit).levels;
    return newLines
      .map((line) => {
        if (trimAscii(line) === '') return line;
        const indent = indentOf(line);
        const written = known.get(indent);
        if (written !== undefined) return written + line.slice(indent.length);
        const { levels, rest } = levelsOf(indent, modelUnit);
        return fileUnit.repeat(Math.max(0, levels + baseLevel)) + ' '.repeat(rest) + line.slice(indent.length);
      })
      .join('\n');
  }
  if (oldBase === fileBase) return newText;
  return newLines
    .map((line) => {
      if (trimAscii(line) === '') return line;
      const indent = indentOf(line);
      if (indent.startsWith(oldBase)) return fileBase + line.slice(oldBase.length);
      // Less indented than oldText's base (the model dedented): keep the difference in
      // columns when everything is spaces, otherwise leave the line as written.
      if (/^ *$/.test(indent + oldBase + fileBase)) {
        return ' '.repeat(Math.max(0, fileBase.length - (oldBase.length - indent.length))) + line.slice(indent.length);
      }
      return line;
    })
    .join('\n');
}

/**
 * One level of indentation in these indents: "\t" when they are tabs only, the common
 * step of spaces when they are spaces only; undefined when mixed or all empty.
 */
function unitOf(indents: readonly string[]): string | undefined {
  const used = indents.filter((indent) => indent !== '');
  if (used.length === 0) return undefined;
  if (used.every((indent) => /^\t+$/.test(indent))) return '\t';
  if (!used.every((indent) => /^ +$/.test(indent))) return undefined;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const widths = [...new Set(used.map((indent) => indent.length))].sort((a, b) => a - b);
  // The step between indentation levels: the gcd of the widths and of their differences.
  // One width alone does not tell the step: take the usual 4 (or 2) that divides it.
  let step = widths.length === 1 ? gcd(widths[0], 4) : widths[0];
  for (let i = 1; i < widths.length; i++) step = gcd(step, widths[i] - widths[i - 1]);
  return ' '.repeat(Math.max(1, step));
}

/** Whole levels of `unit` in `indent` (a tab is one level), and the spaces left over. */
function levelsOf(indent: string, unit: string): { levels: number; rest: number } {
  const tabs = indent.split('\t').length - 1;
  const spaces = indent.length - tabs;
  return unit === '\t' ? { levels: tabs, rest: spaces } : { levels: tabs + Math.floor(spaces / unit.length), rest: spaces % unit.length };
}

// The near-miss search compares at most this many line pairs, and starts a run at most
// at this many places per line of oldText: a hint is worth little time.
const MAX_DIAGNOSE_COMPARISONS = 2_000_000;
const MAX_CANDIDATES_PER_LINE = 64;

/** Explains why no run of lines matched: whitespace inside lines, or the longest near-miss. */
function* diagnose(lines: readonly string[], oldLines: readonly string[]): Steps<string> {
  const squash = (line: string): string => trimAscii(line).replace(/[ \t\f\v\r]+/g, ' ');
  const ids = new Map<string, number>();
  const loose = yield* findRuns(yield* internAll(lines, squash, ids), yield* internAll(oldLines, squash, ids));
  if (loose.length > 0) {
    return (
      `it matches at line ${loose[0] + 1} only if whitespace inside lines is ignored. ` +
      'Copy the text exactly as the file has it (spaces, tabs).'
    );
  }
  // Longest run of consecutive oldText lines found in the file (trimmed), as a hint.
  const keys = new Map<string, number>();
  const fileKeys = yield* internAll(lines, trimAscii, keys);
  const oldKeys = yield* internAll(oldLines, trimAscii, keys);
  const blank = keys.get('');
  const byKey = new Map<number, number[]>();
  oldKeys.forEach((key, j) => {
    if (key === blank) return;
    const list = byKey.get(key);
    if (list === undefined) byKey.set(key, [j]);
    else if (list.length < MAX_CANDIDATES_PER_LINE) list.push(j);
  });
  let best = { length: 0, fileLine: 0, oldLine: 0 };
  let budget = MAX_DIAGNOSE_COMPARISONS;
  let runs = 0;
  search: for (let i = 0; i < fileKeys.length; i++) {
    if (i % STEP === 0) yield;
    const candidates = byKey.get(fileKeys[i]);
    if (candidates === undefined) continue;
    for (const j of candidates) {
      // Only runs that cannot be extended backwards: each diagonal is walked once.
      if (i > 0 && j > 0 && fileKeys[i - 1] === oldKeys[j - 1]) continue;
      let length = 0;
      while (i + length < fileKeys.length && j + length < oldKeys.length && fileKeys[i + length] === oldKeys[j + length]) length++;
      budget -= length + 1;
      if (length > best.length) best = { length, fileLine: i, oldLine: j };
      if (budget <= 0) break search;
      if (++runs % STEP === 0) yield;
    }
  }
  const show = (line: string) => JSON.stringify(clip(fromBinary(trimAscii(line))));
  if (best.length === 0) return 'none of its lines occur in the file. Read the file again; it may have changed.';
  const span = best.length === 1 ? `line ${best.oldLine + 1}` : `lines ${best.oldLine + 1}-${best.oldLine + best.length}`;
  let hint = `the closest match is at line ${best.fileLine + 1} of the file, where ${span} of oldText's ${oldLines.length} match`;
  // Name the first line that breaks the run: after it if oldText goes on, else before it.
  const after = best.oldLine + best.length < oldLines.length;
  const oldIndex = after ? best.oldLine + best.length : best.oldLine - 1;
  const fileIndex = after ? best.fileLine + best.length : best.fileLine - 1;
  const actual = lines[fileIndex];
  hint +=
    actual === undefined
      ? `; oldText goes on past the ${after ? 'end' : 'start'} of the file`
      : `; then oldText has ${show(oldLines[oldIndex])} where line ${fileIndex + 1} of the file has ${show(actual)}`;
  return `${hint}. Edits apply in order, so oldText must match the file as the earlier edits left it.`;
}

/** Lines as small integers (equal keys, equal ids), so runs compare numbers. */
function* internAll(lines: readonly string[], key: (line: string) => string, ids: Map<string, number>): Steps<Int32Array> {
  const out = new Int32Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    if (i % STEP === 0) yield;
    const k = key(lines[i]);
    let id = ids.get(k);
    if (id === undefined) ids.set(k, (id = ids.size));
    out[i] = id;
  }
  return out;
}

/** Start indices of every occurrence of `needle` in `hay` (Knuth-Morris-Pratt: linear time). */
function* findRuns(hay: Int32Array, needle: Int32Array): Steps<number[]> {
  const m = needle.length;
  const found: number[] = [];
  if (m === 0 || m > hay.length) return found;
  const fail = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && needle[i] !== needle[k]) k = fail[k - 1];
    if (needle[i] === needle[k]) k++;
    fail[i] = k;
  }
  for (let i = 0, k = 0; i < hay.length; i++) {
    if (i % (STEP * 16) === 0) yield;
    while (k > 0 && hay[i] !== needle[k]) k = fail[k - 1];
    if (hay[i] === needle[k]) k++;
    if (k === m) {
      found.push(i - m + 1);
      k = fail[k - 1];
    }
  }
  return found;
}

/**
 * Every occurrence of `needle` in `hay` from `from` on, overlapping ones included, in one
 * pass (Knuth-Morris-Pratt over bytes: time linear in both lengths, whatever the text):
 * how many, and the offsets of the first `keep`.
 */
export function* countMatches(hay: Uint8Array, needle: Uint8Array, from = 0, keep = 0): Steps<{ count: number; first: number[] }> {
  const m = needle.length;
  const first: number[] = [];
  let count = 0;
  if (m === 0) return { count, first };
  const fail = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    if (i % (STEP * 64) === 0) yield;
    while (k > 0 && needle[i] !== needle[k]) k = fail[k - 1];
    if (needle[i] === needle[k]) k++;
    fail[i] = k;
  }
  for (let i = from, k = 0; i < hay.length; i++) {
    if (i % (STEP * 64) === 0) yield;
    while (k > 0 && hay[i] !== needle[k]) k = fail[k - 1];
    if (hay[i] === needle[k]) k++;
    if (k === m) {
      if (count++ < keep) first.push(i - m + 1);
      k = fail[k - 1];
    }
  }
  return { count, first };
}

function usesCrlf(bytes: Buffer): boolean {
  let lf = 0;
  let crlf = 0;
  for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) {
    lf++;
    if (i > 0 && bytes[i - 1] === CR) crlf++;
  }
  return crlf > 0 && crlf >= lf - crlf;
}

function withEol(text: string, eol: string): string {
  return eol === '\n' ? text : text.replace(/\n/g, eol);
}

/** Whitespace that cannot be part of a multi-byte UTF-8 character (String#trim also strips U+00A0 and U+0085). */
function trimAscii(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

function fromBinary(text: string): string {
  return Buffer.from(text, 'latin1').toString('utf8');
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, codePointBoundary(text, 77))}...` : text;
}

function describeEdit(index: number, oldText: string): string {
  const firstLine = oldText.split('\n', 50).find((line) => line.trim() !== '') ?? oldText;
  return `edits[${index}] (oldText starting ${JSON.stringify(clip(firstLine.trim()))})`;
}

const SHOWN_MATCHES = 10;

function ambiguous(label: string, lines: number[], count: number): FsError {
  const shown = lines.join(', ') + (count > lines.length ? ', ...' : '');
  return new FsError(
    'EDIT_AMBIGUOUS',
    `${label} matches ${count} places (lines ${shown}). Add surrounding lines to oldText so it matches exactly one place.`,
  );
}

function noMatch(label: string, why: string): FsError {
  return new FsError('EDIT_NO_MATCH', `${label} matches nothing: ${why}`);
}
