import { FsError } from './errors.js';
import { unifiedDiff } from './unified-diff.js';

/**
 * Search-and-replace edits of a text, as edit_file applies them.
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
 * Line endings: a file that mostly uses CRLF is matched as LF and written back as
 * CRLF, so a model's "\n" edits work on Windows files and the file keeps its style.
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

export function applyEdits(original: string, edits: readonly Edit[], options: { path?: string } = {}): EditResult {
  const crlf = usesCrlf(original);
  const start = crlf ? original.replace(/\r\n/g, '\n') : original;
  let content = start;
  const applied: AppliedEdit[] = [];
  edits.forEach((edit, index) => {
    const { result, line, match } = applyOne(content, normalize(edit.oldText), normalize(edit.newText), index);
    content = result;
    applied.push({ line, match });
  });
  return {
    content: crlf ? content.replace(/\n/g, '\r\n') : content,
    diff: unifiedDiff(start, content, options.path ?? 'file'),
    applied,
  };
}

function applyOne(content: string, oldText: string, newText: string, index: number): { result: string; line: number; match: AppliedEdit['match'] } {
  const label = describeEdit(index, oldText);
  if (oldText === '') {
    // Allowed only as "fill an empty file": anywhere else there is no place to put it.
    if (content === '') return { result: newText, line: 1, match: 'exact' };
    throw new FsError('EDIT_NO_MATCH', `${label} has an empty oldText. Include the lines next to where the new text goes.`);
  }

  const exact = occurrences(content, oldText);
  if (exact.length === 1) {
    const at = exact[0];
    return { result: content.slice(0, at) + newText + content.slice(at + oldText.length), line: lineOf(content, at), match: 'exact' };
  }
  if (exact.length > 1) throw ambiguous(label, exact.map((at) => lineOf(content, at)));

  const lines = content.split('\n');
  // "foo\n" means the line foo with its terminator: match the lines, then take the "\n" too.
  const oldLines = (oldText.endsWith('\n') ? oldText.slice(0, -1) : oldText).split('\n');
  if (oldLines.every((line) => line.trim() === '')) throw noMatch(label, 'it is only whitespace, which does not match exactly');

  const fuzzy = findLineRuns(lines, oldLines, (line) => line.trim());
  if (fuzzy.length > 1) throw ambiguous(label, fuzzy.map((i) => i + 1));
  if (fuzzy.length === 0) throw noMatch(label, diagnose(lines, oldLines));

  const first = fuzzy[0];
  const lineStarts = offsetsOfLines(content);
  const from = lineStarts[first];
  const lastLine = first + oldLines.length - 1;
  let to = lineStarts[lastLine] + lines[lastLine].length;
  if (oldText.endsWith('\n') && to < content.length) to += 1;
  const replacement = reindent(newText, oldLines, lines.slice(first, lastLine + 1));
  return { result: content.slice(0, from) + replacement + content.slice(to), line: first + 1, match: 'whitespace' };
}

/**
 * Moves newText from the indentation the model used to the file's real indentation:
 * the base indent of oldText (its first non-blank line) is swapped for the indent of
 * the matched line, keeping each line's indentation relative to that base.
 */
function reindent(newText: string, oldLines: readonly string[], matched: readonly string[]): string {
  const anchor = oldLines.findIndex((line) => line.trim() !== '');
  const oldBase = indentOf(oldLines[anchor]);
  const fileBase = indentOf(matched[anchor]);
  if (oldBase === fileBase) return newText;
  return newText
    .split('\n')
    .map((line) => {
      if (line.trim() === '') return line;
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

/** Explains why no run of lines matched: whitespace inside lines, or the longest near-miss. */
function diagnose(lines: readonly string[], oldLines: readonly string[]): string {
  const squash = (line: string): string => line.trim().replace(/\s+/g, ' ');
  const loose = findLineRuns(lines, oldLines, squash);
  if (loose.length > 0) {
    return (
      `it matches at line ${loose[0] + 1} only if whitespace inside lines is ignored. ` +
      'Copy the text exactly as the file has it (spaces, tabs).'
    );
  }
  // Longest run of consecutive oldText lines found in the file (trimmed), as a hint.
  const byContent = new Map<string, number[]>();
  oldLines.forEach((line, j) => {
    const key = line.trim();
    if (key !== '') byContent.set(key, [...(byContent.get(key) ?? []), j]);
  });
  let best = { length: 0, fileLine: 0, oldLine: 0 };
  for (let i = 0; i < lines.length; i++) {
    for (const j of byContent.get(lines[i].trim()) ?? []) {
      let length = 0;
      while (i + length < lines.length && j + length < oldLines.length && lines[i + length].trim() === oldLines[j + length].trim()) length++;
      if (length > best.length) best = { length, fileLine: i, oldLine: j };
    }
  }
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
      : `; then oldText has ${JSON.stringify(clip(oldLines[oldIndex].trim()))} where line ${fileIndex + 1} of the file has ${JSON.stringify(clip(actual.trim()))}`;
  return `${hint}. Edits apply in order, so oldText must match the file as the earlier edits left it.`;
}

/** Start indices of every match of line sequence `needle` in `lines` under `key`. */
function findLineRuns(lines: readonly string[], needle: readonly string[], key: (line: string) => string): number[] {
  const wanted = needle.map(key);
  const found: number[] = [];
  outer: for (let i = 0; i + wanted.length <= lines.length; i++) {
    for (let j = 0; j < wanted.length; j++) if (key(lines[i + j]) !== wanted[j]) continue outer;
    found.push(i);
  }
  return found;
}

/** Every start index of `needle`, overlapping ones included ("aa" twice in "aaa"). */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) found.push(at);
  return found;
}

function usesCrlf(text: string): boolean {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1;
  return crlf > 0 && crlf >= lf - crlf;
}

function normalize(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function offsetsOfLines(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describeEdit(index: number, oldText: string): string {
  const firstLine = oldText.split('\n').find((line) => line.trim() !== '') ?? oldText;
  return `edits[${index}] (oldText starting ${JSON.stringify(clip(firstLine.trim()))})`;
}

function ambiguous(label: string, lines: number[]): FsError {
  const shown = lines.slice(0, 10).join(', ') + (lines.length > 10 ? ', ...' : '');
  return new FsError(
    'EDIT_AMBIGUOUS',
    `${label} matches ${lines.length} places (lines ${shown}). Add surrounding lines to oldText so it matches exactly one place.`,
  );
}

function noMatch(label: string, why: string): FsError {
  return new FsError('EDIT_NO_MATCH', `${label} matches nothing: ${why}`);
}
