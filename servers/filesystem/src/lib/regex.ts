import { loadRE2JS } from '@mcp-reference/shared/core';
import { FsError } from './errors.js';

/**
 * Client-supplied regular expressions, matched in linear time.
 *
 * grep_files patterns are RE2 expressions (re2js, pure JavaScript): matching takes time
 * linear in the text whatever the pattern, so `(a+)+$` or `.*zzz` on a long line answer in
 * milliseconds instead of running until a time limit. JavaScript spellings RE2 does not
 * have (`\uFFFF`, `\cA`, `(?<name>...)`) are translated. What RE2 cannot express, because
 * no linear-time engine can, is refused with an error naming the construct:
 * backreferences (`\1`, `\k<name>`) and lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`).
 */
export interface CompiledRegex {
  /** RE2 syntax, to compile again elsewhere (a worker) with `flags`. */
  source: string;
  /** re2js flag bits. */
  flags: number;
}

export function compileRegex(pattern: string, options: { caseInsensitive?: boolean } = {}): CompiledRegex {
  const construct = unsupportedConstruct(pattern);
  if (construct) {
    throw new FsError(
      'INVALID_PATTERN',
      `The pattern ${JSON.stringify(pattern)} uses ${construct}, which the linear-time matcher (RE2 syntax) does not support: ` +
        'no engine can match it without risking exponential time. Rewrite the pattern without it (search for the simpler part and read the matches), or set literal: true to search for the text as written.',
    );
  }
  const RE2JS = loadRE2JS();
  let source: string;
  try {
    source = RE2JS.translateRegExp(pattern);
  } catch {
    source = pattern;
  }
  const flags = options.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0;
  try {
    RE2JS.compile(source, flags);
  } catch (error) {
    throw new FsError(
      'INVALID_PATTERN',
      `Invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}. ` +
        'Patterns use RE2 syntax (like JavaScript without backreferences or lookaround). Escape special characters with \\, or set literal: true to search for the text as written.',
    );
  }
  return { source, flags };
}

/** RE2 syntax for `text` matched literally. */
export function quoteRegex(text: string): string {
  return loadRE2JS().quote(text);
}

/** The first construct of `pattern` that RE2 cannot express, described, or undefined. */
export function unsupportedConstruct(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      if (!inClass && next !== undefined && /[1-9]/.test(next)) return `a backreference ("\\${next}")`;
      if (!inClass && next === 'k' && pattern[i + 2] === '<') return 'a named backreference ("\\k<...>")';
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const rest = pattern.slice(i + 2, i + 4);
      if (rest.startsWith('=')) return 'a lookahead ("(?=...)")';
      if (rest.startsWith('!')) return 'a negative lookahead ("(?!...)")';
      if (rest === '<=') return 'a lookbehind ("(?<=...)")';
      if (rest === '<!') return 'a negative lookbehind ("(?<!...)")';
    }
  }
  return undefined;
}
