import type { RE2JS as RE2JSPattern } from 're2js';
import { loadRE2JS } from '@mcp-reference/shared/core';
import { FsError } from './errors.js';

/**
 * Globs, matched in linear time.
 *
 * A glob is a regular expression in disguise, and a backtracking engine takes
 * exponential time on some (`@(a+)+b` on a name of a's) and quadratic time on others.
 * So every glob a client sends is translated here into an RE2 expression and matched by
 * re2js (pure JavaScript, linear in the length of the path, whatever the glob), and no
 * glob needs to be refused for being slow.
 *
 * Semantics are minimatch's with `{ dot: true }` (what the official filesystem server
 * uses): `*` and `?` stay within a path segment, `**` as a whole segment spans any number
 * of them ("**\/x" matches "x"; "a/**" matches what is below "a", not "a"), `[...]` and
 * `[!...]` classes (POSIX classes such as `[[:alpha:]]` included), `{a,b}` and `{1..3}`
 * braces, the extglobs `@(a|b)`, `?(...)`, `*(...)`, `+(...)`, a leading `!` negating the
 * whole glob, and `\` escaping the next character.
 *
 * Differences, both refused with an error rather than matched differently:
 * - `!(...)` (a negated extglob) takes only plain names ("!(node_modules|dist)"): the
 *   complement of a glob has no linear-time translation;
 * - braces that expand to more than MAX_BRACE_EXPANSIONS patterns.
 *
 * Backslashes: on Windows a backslash is a path separator in a glob (as in the paths
 * themselves); elsewhere it escapes the next character, and `escapeNote` says so when a
 * glob uses one the way a Windows path would.
 */
export interface GlobOptions {
  /** Match letters case-insensitively (a case-insensitive filesystem). */
  caseInsensitive?: boolean;
  /** Default `process.platform`; 'win32' reads a backslash as a separator. */
  platform?: NodeJS.Platform;
}

export const MAX_BRACE_EXPANSIONS = 1000;

export interface CompiledGlob {
  /** The glob as given. */
  glob: string;
  /** The RE2 expression, anchored, without the negation. */
  source: string;
  /** Whether the glob started with "!". */
  negated: boolean;
  /** Whether a relative path ("a/b/c", "/" separators) matches. */
  test(path: string): boolean;
}

/**
 * Compiles `glob`; throws INVALID_PATTERN (naming what is wrong) for what it cannot
 * match. `label` names the argument in that message ("The search pattern").
 */
export function compileGlob(glob: string, options: GlobOptions = {}, label = 'The glob'): CompiledGlob {
  const { source, negated } = globToRegExpSource(glob, options, label);
  const RE2JS = loadRE2JS();
  let re: RE2JSPattern;
  try {
    re = RE2JS.compile(source, options.caseInsensitive ? RE2JS.CASE_INSENSITIVE | RE2JS.DOTALL : RE2JS.DOTALL);
  } catch (error) {
    throw new FsError('INVALID_PATTERN', `${label} ${JSON.stringify(glob)} is not a valid glob: ${(error as Error).message}.`);
  }
  return { glob, source, negated, test: negated ? (path) => !re.matches(path) : (path) => re.matches(path) };
}

/**
 * One test for several globs: true when any of them matches. The globs that are not
 * negated are matched as one RE2 alternation, in one pass over the path: tested one by one,
 * 250 exclude patterns made a search of 20,000 entries take 31 s (1,000 patterns, minutes).
 * Each glob is still checked on its own, so an error names the one at fault.
 */
export function compileGlobSet(globs: readonly string[], options: GlobOptions = {}, label = 'The glob'): (path: string) => boolean {
  const compiled = globs.map((glob) => ({ glob, ...globToRegExpSource(glob, options, label) }));
  const tests: ((path: string) => boolean)[] = compiled.filter((one) => one.negated).map((one) => compileGlob(one.glob, options, label).test);
  const plain = compiled.filter((one) => !one.negated);
  if (plain.length === 1) tests.unshift(compileGlob(plain[0].glob, options, label).test);
  else if (plain.length > 1) {
    const RE2JS = loadRE2JS();
    const flags = options.caseInsensitive ? RE2JS.CASE_INSENSITIVE | RE2JS.DOTALL : RE2JS.DOTALL;
    let re: RE2JSPattern;
    try {
      re = RE2JS.compile(plain.map((one) => `(?:${one.source})`).join('|'), flags);
    } catch {
      // Not expected (each source is valid on its own): find the one that fails, and name it.
      for (const one of plain) compileGlob(one.glob, options, label);
      throw new FsError('INVALID_PATTERN', `${label}s could not be matched together (${plain.length} of them); give fewer.`);
    }
    tests.unshift((path) => re.matches(path));
  }
  if (tests.length === 0) return () => false;
  if (tests.length === 1) return tests[0];
  return (path) => tests.some((test) => test(path));
}

/** The anchored RE2 source of `glob` (and whether it is negated), for compiling elsewhere. */
export function globToRegExpSource(glob: string, options: GlobOptions = {}, label = 'The glob'): { source: string; negated: boolean } {
  const platform = options.platform ?? process.platform;
  let pattern = platform === 'win32' ? glob.replace(/\\/g, '/') : glob;
  let negated = false;
  // As minimatch: a leading "!" negates the glob, even before "(".
  while (pattern.startsWith('!')) {
    negated = !negated;
    pattern = pattern.slice(1);
  }
  const fail = (reason: string): never => {
    throw new FsError('INVALID_PATTERN', `${label} ${JSON.stringify(glob)} is refused: ${reason}`);
  };
  const expanded = expandBraces(pattern, fail);
  const alternatives = [...new Set(expanded)].map((one) => translatePath(one, fail));
  const body = alternatives.length === 1 ? alternatives[0] : alternatives.map((a) => `(?:${a})`).join('|');
  return { source: `^(?:${body})$`, negated };
}

/**
 * Why a glob written with backslashes probably matches nothing on this system, or
 * undefined. On Windows a backslash is a separator, so never there.
 */
export function escapeNote(glob: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32' || !glob.includes('\\')) return undefined;
  return (
    `"\\" in the glob ${JSON.stringify(glob)} escapes the next character on this system; it is not a path separator ` +
    `(so "Sub Dir\\*.txt" means a name with a literal "*"). Use "/" between directories, e.g. ${JSON.stringify(glob.replace(/\\/g, '/'))}.`
  );
}

type Fail = (reason: string) => never;

const GLOB_SPECIAL = /[*?[\]{}()!+@\\]/;

/** Whether `text` has no glob syntax at all (matches only itself). */
export function isPlainGlob(text: string): boolean {
  return !GLOB_SPECIAL.test(text);
}

// --- braces -------------------------------------------------------------------------

/** Brace expansion as minimatch does it (first, on the whole pattern). */
function expandBraces(pattern: string, fail: Fail): string[] {
  const open = findBraceSet(pattern);
  if (!open) return [pattern];
  const { start, end, parts } = open;
  const prefix = pattern.slice(0, start);
  const suffixes = expandBraces(pattern.slice(end + 1), fail);
  const out: string[] = [];
  for (const part of parts) {
    for (const middle of expandBraces(part, fail)) {
      for (const suffix of suffixes) {
        out.push(prefix + middle + suffix);
        if (out.length > MAX_BRACE_EXPANSIONS) fail(`its braces expand to more than ${MAX_BRACE_EXPANSIONS} patterns. Use fewer or smaller {a,b} sets.`);
      }
    }
  }
  return out;
}

/** The first brace set that expands: `{a,b}` with a top-level comma, or a `{x..y}` range. */
function findBraceSet(pattern: string): { start: number; end: number; parts: string[] } | undefined {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      const close = classEnd(pattern, i);
      if (close !== -1) i = close;
      continue;
    }
    if (c !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    let j = i;
    for (; j < pattern.length; j++) {
      const d = pattern[j];
      if (d === '\\') j++;
      else if (d === '{') depth++;
      else if (d === '}' && --depth === 0) break;
      else if (d === ',' && depth === 1) commas.push(j);
    }
    if (j >= pattern.length) return undefined; // unbalanced: the rest is literal
    const inner = pattern.slice(i + 1, j);
    if (commas.length > 0) {
      const parts: string[] = [];
      let from = i + 1;
      for (const comma of commas) {
        parts.push(pattern.slice(from, comma));
        from = comma + 1;
      }
      parts.push(pattern.slice(from, j));
      return { start: i, end: j, parts };
    }
    const range = expandRange(inner);
    if (range) return { start: i, end: j, parts: range };
    // "{a}" and "{}" stay literal; look for a set further on.
  }
  return undefined;
}

function expandRange(inner: string): string[] | undefined {
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  if (numeric) {
    const [from, to] = [Number(numeric[1]), Number(numeric[2])];
    const step = Math.abs(Number(numeric[3] ?? 1)) || 1;
    const width = /^-?0\d/.test(numeric[1]) || /^-?0\d/.test(numeric[2]) ? Math.max(numeric[1].length, numeric[2].length) : 0;
    if (Math.abs(to - from) / step > MAX_BRACE_EXPANSIONS) return undefined;
    const out: string[] = [];
    for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? step : -step) {
      const text = String(Math.abs(n)).padStart(width - (n < 0 ? 1 : 0), '0');
      out.push(n < 0 ? `-${text}` : text);
    }
    return out;
  }
  const alpha = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(inner);
  if (alpha) {
    const [from, to] = [alpha[1].charCodeAt(0), alpha[2].charCodeAt(0)];
    const out: string[] = [];
    for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? 1 : -1) out.push(String.fromCharCode(n));
    return out;
  }
  return undefined;
}

// --- paths and segments ---------------------------------------------------------------

function translatePath(pattern: string, fail: Fail): string {
  const segments = splitSegments(pattern);
  let out = '';
  let needSeparator = false;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment === '**') {
      if (segments[i + 1] === '**') continue;
      const last = i === segments.length - 1;
      if (last) out += needSeparator ? '/.*' : '.*';
      else out += needSeparator ? '(?:/.*)?/' : '(?:.*/)?';
      needSeparator = false;
      continue;
    }
    out += (needSeparator ? '/' : '') + translateSegment(segment, fail);
    needSeparator = true;
  }
  return out;
}

/** Splits on "/" outside brackets and extglob parentheses, keeping escapes. */
function splitSegments(pattern: string): string[] {
  const segments: string[] = [];
  let current = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) {
      current += c + pattern[++i];
      continue;
    }
    if (c === '[') {
      const close = classEnd(pattern, i);
      if (close !== -1) {
        current += pattern.slice(i, close + 1);
        i = close;
        continue;
      }
    }
    if (c === '(' && i > 0 && '@?*+!'.includes(pattern[i - 1])) depth++;
    else if (c === ')' && depth > 0) depth--;
    if (c === '/' && depth === 0) {
      segments.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  segments.push(current);
  return segments;
}

/** Index of the "]" that closes the class opened at `open`, or -1 (then "[" is literal). */
function classEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === '!' || pattern[i] === '^') i++;
  if (pattern[i] === ']') i++; // a leading "]" is a member
  for (; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[' && pattern[i + 1] === ':') {
      const close = pattern.indexOf(':]', i + 2);
      if (close !== -1) i = close + 1;
    } else if (c === ']') return i;
  }
  return -1;
}

const POSIX_CLASSES = new Set(['alnum', 'alpha', 'ascii', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space', 'upper', 'word', 'xdigit']);

function escapeChar(c: string): string {
  return /[\\^$.|?*+()[\]{}]/.test(c) ? `\\${c}` : c;
}

function escapeClassChar(c: string): string {
  return /[\\\]^[-]/.test(c) ? `\\${c}` : c;
}

/** One path segment (no "/" outside extglobs) as RE2 source. */
function translateSegment(segment: string, fail: Fail): string {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if ('@?*+!'.includes(c) && segment[i + 1] === '(') {
      const close = extglobEnd(segment, i + 1);
      if (close !== -1) {
        const alternatives = splitAlternatives(segment.slice(i + 2, close));
        if (c === '!') out += complementOf(alternatives, segment, fail);
        else {
          const group = `(?:${alternatives.map((a) => translateSegment(a, fail)).join('|')})`;
          out += group + (c === '@' ? '' : c);
        }
        i = close;
        continue;
      }
    }
    if (c === '*') {
      while (segment[i + 1] === '*' && segment[i + 2] !== '(') i++;
      out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = classEnd(segment, i);
      if (close === -1) out += '\\[';
      else {
        out += translateClass(segment.slice(i + 1, close));
        i = close;
      }
    } else if (c === '\\') {
      if (i + 1 < segment.length) out += escapeChar(segment[++i]);
      else out += '\\\\'; // a trailing backslash matches itself
    } else {
      const code = segment.codePointAt(i)!;
      const char = String.fromCodePoint(code);
      out += escapeChar(char);
      i += char.length - 1;
    }
  }
  return out;
}

function translateClass(body: string): string {
  let negated = false;
  let i = 0;
  if (body[0] === '!' || body[0] === '^') {
    negated = true;
    i = 1;
  }
  let members = '';
  for (; i < body.length; i++) {
    const c = body[i];
    if (c === '[' && body[i + 1] === ':') {
      const close = body.indexOf(':]', i + 2);
      const name = close === -1 ? '' : body.slice(i + 2, close);
      if (POSIX_CLASSES.has(name)) {
        members += `[:${name}:]`;
        i = close + 1;
        continue;
      }
    }
    if (c === '\\' && i + 1 < body.length) {
      members += escapeClassChar(body[++i]);
      continue;
    }
    if (c === '-' && members !== '' && i + 1 < body.length) {
      members += '-';
      continue;
    }
    members += escapeClassChar(c);
  }
  // A class never matches the separator.
  return negated ? `[^/${members}]` : `[${members}]`;
}

function extglobEnd(segment: string, open: number): number {
  let depth = 0;
  for (let i = open; i < segment.length; i++) {
    const c = segment[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const close = classEnd(segment, i);
      if (close !== -1) i = close;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const close = classEnd(body, i);
      if (close !== -1) i = close;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      parts.push(body.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(body.slice(from));
  return parts;
}

/**
 * `!(a|b)`: any run of non-separator characters other than the names given, as a
 * regular expression built from their trie (a complement of a finite set is regular).
 */
function complementOf(alternatives: string[], segment: string, fail: Fail): string {
  const words: string[] = [];
  for (const alternative of alternatives) {
    const word = alternative.replace(/\\(.)/g, '$1');
    if (!isPlainGlob(alternative.replace(/\\./g, '')) || word.includes('/')) {
      fail(
        `"!(...)" in ${JSON.stringify(segment)} holds a glob; a negated extglob can only list plain names, e.g. "!(node_modules|dist)". ` +
          'Match the wanted names instead, or leave the others out with an exclude pattern.',
      );
    }
    words.push(word);
  }
  interface Node {
    end: boolean;
    next: Map<string, Node>;
  }
  const root: Node = { end: false, next: new Map() };
  for (const word of words) {
    let node = root;
    for (const char of word) {
      let child = node.next.get(char);
      if (!child) node.next.set(char, (child = { end: false, next: new Map() }));
      node = child;
    }
    node.end = true;
  }
  const build = (node: Node): string => {
    const chars = [...node.next.keys()];
    const branches = [`[^/${chars.map(escapeClassChar).join('')}][^/]*`];
    for (const [char, child] of node.next) branches.push(escapeChar(char) + build(child));
    const group = `(?:${branches.join('|')})`;
    return node.end ? group : `${group}?`;
  };
  return build(root);
}
