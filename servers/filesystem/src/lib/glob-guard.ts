import picomatch from 'picomatch';
import { FsError } from './errors.js';

/**
 * Refuses globs whose matching can take super-linear time, for the globs that must be
 * matched on the event loop (exclusions are applied inside the directory walk, which
 * prunes excluded directories as it goes). A glob is a regular expression in disguise:
 * `@(a+)+b` is `(a+)+b`, exponential on a name of a's; `*a*a*a*a*b` takes 10 s on a
 * 200-character name. Search patterns and include globs are matched in a worker and
 * need no such limit.
 *
 * Refused: a repeated group that holds another repetition or an alternation (the
 * exponential kind: extglobs such as `+(a|aa)`, `@(a+)+`), more than 3 `*` in one path
 * segment, more than 2 `**` segments. Measured worst cases of what is let through:
 * `*a*a*b` on a 255-character name 16 ms; `**` + `a*` + `**` on a 2,000-character
 * path 1 ms.
 */
export const MAX_STARS_PER_SEGMENT = 3;
export const MAX_GLOBSTARS = 2;

export function assertSafeGlobs(globs: readonly string[] | undefined, label: string): void {
  for (const glob of globs ?? []) {
    const reason = unsafeGlobReason(glob);
    if (reason) {
      throw new FsError('INVALID_PATTERN', `${label} ${JSON.stringify(glob)} is refused: ${reason}. Use a simpler glob (at most ${MAX_STARS_PER_SEGMENT} "*" per path segment, ${MAX_GLOBSTARS} "**", no repeated extglob groups).`);
    }
  }
}

/** Why matching `glob` could take super-linear time, or undefined when it cannot. */
export function unsafeGlobReason(glob: string): string | undefined {
  const segments = glob.split('/');
  if (segments.filter((segment) => segment === '**').length > MAX_GLOBSTARS) return `more than ${MAX_GLOBSTARS} "**" segments`;
  for (const segment of segments) {
    if (segment !== '**' && (segment.match(/\*+/g) ?? []).length > MAX_STARS_PER_SEGMENT) return `more than ${MAX_STARS_PER_SEGMENT} "*" in one segment`;
  }
  let source: string;
  try {
    source = picomatch.makeRe(glob, { dot: true }).source;
  } catch {
    return undefined; // the caller's own compilation reports an invalid glob
  }
  return nestedRepetition(source) ? 'a repeated group holds another repetition or an alternation' : undefined;
}

/**
 * Whether a regular expression source repeats (with *, + or {n,}) a group that itself
 * contains an unbounded repetition or an alternation at its own level: the shapes that
 * backtrack exponentially.
 */
export function nestedRepetition(source: string): boolean {
  interface Group {
    repeats: boolean;
    alternates: boolean;
    lookaround: boolean;
  }
  const stack: Group[] = [{ repeats: false, alternates: false, lookaround: false }];
  let lastClosed: Group | undefined;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    const unbounded = c === '*' || c === '+' || (c === '{' && /^\{\d*,\}/.test(source.slice(i)));
    if (unbounded) {
      if (lastClosed && !lastClosed.lookaround && (lastClosed.repeats || lastClosed.alternates)) return true;
      const top = stack[stack.length - 1];
      top.repeats = true;
      if (c === '{') i = source.indexOf('}', i);
      lastClosed = undefined;
      continue;
    }
    lastClosed = undefined;
    if (c === '\\') i++;
    else if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
    } else if (c === '(') {
      const lookaround = /^\(\?<?[=!]/.test(source.slice(i, i + 4));
      stack.push({ repeats: false, alternates: false, lookaround });
    } else if (c === ')') {
      const closed = stack.pop()!;
      // A repetition inside makes the enclosing group repeat too (but a lookaround's does not matter outside it).
      if (closed.repeats && !closed.lookaround) stack[stack.length - 1].repeats = true;
      lastClosed = closed;
    } else if (c === '|') stack[stack.length - 1].alternates = true;
  }
  return false;
}
