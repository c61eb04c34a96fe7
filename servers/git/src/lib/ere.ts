/**
 * `git_grep` regexes: POSIX extended syntax, as `git grep -E` reads it, matched in linear time.
 *
 * git's engine (the C library's) takes time quadratic in a line's length on some patterns
 * (`(a|b|.)*c` over a line of 40,000 characters without a "c": 19 s) and exponential on
 * backreferences. So the server parses the pattern itself, with git's rules (GNU extended
 * syntax, POSIX brackets), refusing with git's reason what git would refuse, and:
 * - a pattern cheap in git's engine (`direct`: single characters in sequence, a set count of
 *   times, anchors, `?`, a few alternatives; at most 32 characters a match) stays git's;
 * - any other is written in RE2 syntax for re2js (time linear in the text), and matched on
 *   the lines git finds holding what every match holds (`prefilter`): fixed text
 *   (`(foo|bar)+baz` needs "baz") or a short sequence of characters (`[0-9]+\.[0-9]+` holds
 *   `[0-9]\.[0-9]`), or on every line when there is none.
 * What no linear-time engine can do (backreferences), and the few spellings RE2 has no equal
 * for, are refused with a message naming them.
 *
 * Pure: no MCP, no I/O.
 */

export class PatternError extends Error {
  override name = 'PatternError';
}

export interface TranslatedPattern {
  /** The pattern in RE2 syntax, for re2js. */
  re2: string;
  /**
   * What `git grep` looks for to find the candidate lines (every match holds one), cheap in
   * git's engine: fixed text (`-F`), or an extended regex of single characters in sequence
   * (no repetition but of a set count), or alternatives of those. Undefined when none is known:
   * every line is a candidate.
   */
  prefilter?: { fixed: string } | { extended: string };
  /**
   * True when the pattern is cheap in git's own engine: single characters in sequence, a set
   * count of times, with anchors, `?` and a few alternatives, so each match spans at most
   * MAX_FRAGMENT characters and git's work is at most that per character of a line. Then git
   * matches it directly, as written, and RE2 is not needed.
   */
  direct: boolean;
}

/** Longest regex accepted. */
const MAX_PATTERN_CHARS = 8192;
/** RE2 nests groups up to this deep. */
const MAX_DEPTH = 1000;
/** RE2 allows a repetition count up to this (git's engine, 32,767). */
const MAX_REPEAT = 1000;
/** Characters of a sequence git is given to match (its work per character of a line grows with it). */
const MAX_FRAGMENT = 32;
/** Bounds of the literal sets worked out for the prefilter. */
const MAX_SET = 16;
const MAX_LITERAL = 64;

type Node =
  | { kind: 'literal'; char: string }
  | { kind: 'other'; re2: string; wordChars?: boolean; chars?: string[]; ere?: string; wide?: string }
  | { kind: 'empty'; re2: string }
  | { kind: 'wordEdge'; start: boolean }
  | { kind: 'group'; body: Node }
  | { kind: 'concat'; items: Node[] }
  | { kind: 'alternation'; branches: Node[] }
  | { kind: 'repeat'; body: Node; min: number; max: number };

const CLASS_NAMES = new Set(['alnum', 'alpha', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space', 'upper', 'xdigit']);
const RE2_SPECIAL = new Set([...'\\.+*?()|[]{}^$']);

/** Translates a POSIX extended regex (git's dialect); throws PatternError naming what is refused. */
export function translateEre(pattern: string): TranslatedPattern {
  if (pattern.includes('\0')) throw new PatternError('The pattern contains a NUL character, which git cannot be given.');
  // Parsed and compiled on the event loop (about 2 ms a kilobyte each): bounded.
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new PatternError(`The regex is ${pattern.length.toLocaleString('en-US')} characters long; at most ${MAX_PATTERN_CHARS.toLocaleString('en-US')} are accepted. Search for a shorter part of it, or set regex: false to search for the text as written.`);
  }
  const tree = new Parser(pattern).parse();
  const re2 = emit(tree);
  // A pattern that can match an empty string goes to RE2: git reports such a match on a line
  // after a file's last newline, which the file does not have.
  return { re2, prefilter: prefilterOf(tree), direct: shapeInGit(tree) !== undefined && !matchesEmpty(tree) };
}

/** Whether the node can match an empty string. */
function matchesEmpty(node: Node): boolean {
  switch (node.kind) {
    case 'literal':
    case 'other':
      return false;
    case 'empty':
    case 'wordEdge':
      return true;
    case 'group':
      return matchesEmpty(node.body);
    case 'concat':
      return node.items.every(matchesEmpty);
    case 'alternation':
      return node.branches.some(matchesEmpty);
    case 'repeat':
      return node.min === 0 || matchesEmpty(node.body);
  }
}

/** The longest match and the alternatives git's engine follows at once, for a pattern cheap in it; undefined otherwise. */
function shapeInGit(node: Node): { length: number; count: number } | undefined {
  const bounded = (shape: { length: number; count: number } | undefined) => (shape && shape.length <= MAX_FRAGMENT && shape.count <= MAX_SET ? shape : undefined);
  switch (node.kind) {
    case 'literal':
      return { length: 1, count: 1 };
    case 'other':
      return node.ere === undefined ? undefined : { length: 1, count: 1 };
    case 'empty':
    case 'wordEdge':
      return { length: 0, count: 1 };
    case 'group':
      return shapeInGit(node.body);
    case 'concat': {
      let shape: { length: number; count: number } | undefined = { length: 0, count: 1 };
      for (const item of node.items) {
        const part = shapeInGit(item);
        shape = part && shape ? bounded({ length: shape.length + part.length, count: shape.count * part.count }) : undefined;
      }
      return shape;
    }
    case 'alternation': {
      const parts = node.branches.map(shapeInGit);
      if (parts.some((part) => part === undefined)) return undefined;
      return bounded({ length: Math.max(...parts.map((part) => part!.length)), count: parts.reduce((sum, part) => sum + part!.count, 0) });
    }
    case 'repeat': {
      const body = shapeInGit(node.body);
      if (!body || node.max === Infinity || node.max > MAX_FRAGMENT) return undefined;
      return bounded({ length: body.length * node.max, count: body.count ** Math.min(node.max, 5) * (node.max - node.min + 1) });
    }
  }
}

/** The more selective of the literal text and the character sequence every match holds. */
function prefilterOf(tree: Node): TranslatedPattern['prefilter'] {
  // A newline cannot be looked for in a line: then there is no text to look for.
  const found = literalsOf(tree);
  const literals = found?.some((text) => text.includes('\n')) ? undefined : found;
  const literalLength = literals?.length ? Math.min(...literals.map((text) => [...text].length)) : 0;
  // Fixed text of three characters or more is found fastest (git looks for it as a string); a
  // sequence that starts with a class makes git try each position a class member stands at.
  const sequence = literalLength >= 3 ? undefined : fragmentOf(tree);
  if (sequence && sequence.length > literalLength && sequence.length > 0) return { extended: sequence.ere };
  if (!literals?.length || literalLength === 0) return undefined;
  return literals.length === 1 ? { fixed: literals[0] } : { extended: literals.map((text) => [...text].map(ereLiteral).join('')).join('|') };
}

class Parser {
  private readonly chars: string[];
  private at = 0;
  private depth = 0;

  constructor(private readonly pattern: string) {
    // By code point: a character outside the BMP is one character, as for git in a UTF-8 text.
    this.chars = [...pattern];
  }

  parse(): Node {
    const node = this.alternation();
    // An unmatched ")" is an ordinary character in git's dialect; alternation() stops only at the end.
    return node;
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.at + offset];
  }

  private fail(reason: string): never {
    throw new PatternError(`Invalid regular expression ${JSON.stringify(this.pattern)}: ${reason}.`);
  }

  private alternation(): Node {
    const branches = [this.concat()];
    while (this.peek() === '|') {
      this.at++;
      branches.push(this.concat());
    }
    return branches.length === 1 ? branches[0] : { kind: 'alternation', branches };
  }

  private concat(): Node {
    const items: Node[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === '|' || (c === ')' && this.depth > 0)) break;
      let atom = this.atom();
      for (;;) {
        const op = this.peek();
        if (op !== '*' && op !== '+' && op !== '?' && op !== '{') break;
        if (atom.kind === 'empty' || atom.kind === 'wordEdge') this.fail('Invalid preceding regular expression (a repetition of an anchor)');
        atom = this.repetition(atom);
      }
      items.push(atom);
    }
    return items.length === 1 ? items[0] : { kind: 'concat', items };
  }

  private repetition(body: Node): Node {
    const op = this.chars[this.at++];
    if (op === '*') return { kind: 'repeat', body, min: 0, max: Infinity };
    if (op === '+') return { kind: 'repeat', body, min: 1, max: Infinity };
    if (op === '?') return { kind: 'repeat', body, min: 0, max: 1 };
    // "{n}", "{n,}", "{n,m}", or GNU's "{,m}".
    let text = '';
    while (this.peek() !== undefined && this.peek() !== '}') text += this.chars[this.at++];
    if (this.peek() !== '}') this.fail('Unmatched \\{');
    this.at++;
    const parts = /^(\d*)(,(\d*))?$/.exec(text);
    if (!parts || (parts[1] === '' && parts[2] === undefined)) this.fail('Invalid content of \\{\\}');
    const min = parts[1] === '' ? 0 : Number(parts[1]);
    const max = parts[2] === undefined ? min : parts[3] === '' ? Infinity : Number(parts[3]);
    if (max < min) this.fail('Invalid content of \\{\\}');
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) {
      throw new PatternError(`The repetition {${text}} counts past ${MAX_REPEAT}, the most the linear-time matcher (RE2) allows. Use a smaller count.`);
    }
    return { kind: 'repeat', body, min, max };
  }

  private atom(): Node {
    const c = this.chars[this.at++];
    if (c === '*' || c === '+' || c === '?' || c === '{') this.fail('Invalid preceding regular expression (a repetition with nothing before it)');
    switch (c) {
      case '(': {
        if (++this.depth > MAX_DEPTH) throw new PatternError(`The pattern nests groups more than ${MAX_DEPTH} deep; the matcher (RE2) allows no more.`);
        const body = this.alternation();
        if (this.peek() !== ')') this.fail('Unmatched ( or \\(');
        this.at++;
        this.depth--;
        return { kind: 'group', body };
      }
      case '.':
        return { kind: 'other', re2: '.', wide: '.' };
      case '^':
        return { kind: 'empty', re2: '^' };
      case '$':
        return { kind: 'empty', re2: '$' };
      case '[':
        return this.bracket();
      case '\\':
        return this.escape();
      default:
        return { kind: 'literal', char: c };
    }
  }

  private escape(): Node {
    const c = this.chars[this.at++];
    if (c === undefined) this.fail('Trailing backslash');
    if (c >= '1' && c <= '9') {
      throw new PatternError(
        `The pattern uses a backreference ("\\${c}"), which no linear-time matcher can match (git's own engine can take exponential time on it): it is not accepted. ` +
          'Search for the pattern without it and read the matches.',
      );
    }
    switch (c) {
      case 'w':
        return { kind: 'other', re2: '\\w', wordChars: true, ere: '\\w' };
      case 'W':
        return { kind: 'other', re2: '\\W', wide: '\\W' };
      case 's':
        return { kind: 'other', re2: '\\s', ere: '\\s' };
      case 'S':
        return { kind: 'other', re2: '\\S', wide: '\\S' };
      case 'b':
        return { kind: 'empty', re2: '\\b' };
      case 'B':
        return { kind: 'empty', re2: '\\B' };
      case '<':
        return { kind: 'wordEdge', start: true };
      case '>':
        return { kind: 'wordEdge', start: false };
      case '`':
      case "'":
        throw new PatternError(`"\\${c}" (start or end of the buffer) is not supported; use ${c === '`' ? '"^"' : '"$"'} for the start or end of a line.`);
    }
    if (/[\p{L}\p{N}]/u.test(c)) {
      const hint = c === 'd' ? ' For a digit write [0-9] or [[:digit:]].' : c === 't' || c === 'n' ? ' Write the character itself.' : '';
      throw new PatternError(`"\\${c}" is not an escape in POSIX extended regex (git would read it as "${c}"), so it is refused rather than guessed.${hint} Escapes: \\w \\W \\s \\S \\b \\B \\< \\> and a backslash before punctuation.`);
    }
    return { kind: 'literal', char: c };
  }

  /** A bracket expression, after its "[": POSIX rules (a backslash is itself; "]" first is a member). */
  private bracket(): Node {
    const start = this.at - 1;
    let negated = false;
    let ascii = true;
    if (this.peek() === '^') {
      negated = true;
      this.at++;
    }
    const members: string[] = [];
    // Its characters, while few and known (no [:class:]): a prefilter can look for any of them.
    let chars: string[] | undefined = [];
    let allWord = true;
    let first = true;
    const member = (): { char?: string; re2: string; word: boolean } => {
      const c = this.chars[this.at++];
      if (c === '[' && (this.peek() === ':' || this.peek() === '.' || this.peek() === '=')) {
        const kind = this.chars[this.at++];
        let name = '';
        while (this.peek() !== undefined && !(this.peek() === kind && this.peek(1) === ']')) name += this.chars[this.at++];
        if (this.peek() === undefined) this.fail('Unmatched [, [^, [:, [., or [=');
        this.at += 2;
        if (kind === ':') {
          if (!CLASS_NAMES.has(name)) this.fail('Invalid character class name');
          return { re2: `[:${name}:]`, word: name === 'alnum' || name === 'alpha' || name === 'digit' || name === 'lower' || name === 'upper' };
        }
        // [.x.] and [=x=] of one character are that character (C locale); names are refused.
        if ([...name].length !== 1) this.fail('Invalid collation character');
        return { char: name, re2: classChar(name), word: isWordChar(name) };
      }
      if (c > '\x7f') ascii = false;
      return { char: c, re2: classChar(c), word: isWordChar(c) };
    };
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.fail('Unmatched [, [^, [:, [., or [=');
      if (c === ']' && !first) {
        this.at++;
        break;
      }
      first = false;
      const low = member();
      // A range "a-z"; a "-" first or last is itself.
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined && low.char !== undefined) {
        this.at++;
        const high = member();
        if (high.char === undefined) this.fail('Invalid range end');
        if (high.char.codePointAt(0)! < low.char.codePointAt(0)!) this.fail('Invalid range end');
        members.push(`${low.re2}-${high.re2}`);
        const from = low.char.codePointAt(0)!;
        const to = high.char.codePointAt(0)!;
        if (chars && to - from < MAX_SET) for (let code = from; code <= to; code++) chars.push(String.fromCodePoint(code));
        else chars = undefined;
        allWord &&= /^[a-z]$/.test(low.char) && /^[a-z]$/.test(high.char) || /^[A-Z]$/.test(low.char) && /^[A-Z]$/.test(high.char) || /^[0-9]$/.test(low.char) && /^[0-9]$/.test(high.char);
      } else {
        members.push(low.re2);
        allWord &&= low.word;
        if (low.char === undefined) chars = undefined;
        else chars?.push(low.char);
      }
    }
    const set = !negated && chars && new Set(chars).size <= MAX_SET ? [...new Set(chars)] : undefined;
    // As written, for git's engine: one byte there as one character here only for ASCII, and never negated.
    const written = this.chars.slice(start, this.at).join('');
    const ere = !negated && ascii ? written : undefined;
    return { kind: 'other', re2: `[${negated ? '^' : ''}${members.join('')}]`, wordChars: !negated && allWord, chars: set, ere, wide: ere === undefined && ascii ? written : undefined };
  }
}

function isWordChar(c: string): boolean {
  return /^[A-Za-z0-9_]$/.test(c);
}

/** One character inside an RE2 class: by its code point, so no character is read as syntax. */
function classChar(c: string): string {
  return /^[A-Za-z0-9 _]$/.test(c) ? c : `\\x{${c.codePointAt(0)!.toString(16)}}`;
}

function emit(node: Node): string {
  switch (node.kind) {
    case 'literal':
      return RE2_SPECIAL.has(node.char) ? `\\${node.char}` : /^[\x20-\x7e]$/.test(node.char) ? node.char : `\\x{${node.char.codePointAt(0)!.toString(16)}}`;
    case 'other':
    case 'empty':
      return node.re2;
    case 'wordEdge':
      // Only as part of a sequence, where what is next to it is known (emitSequence).
      throw new PatternError(`"${node.start ? '\\<' : '\\>'}" must ${node.start ? 'come before' : 'follow'} a word character; write \\b for a word boundary.`);
    case 'group':
      return `(?:${emit(node.body)})`;
    case 'alternation':
      return node.branches.map(emit).join('|');
    case 'concat':
      return emitSequence(node.items);
    case 'repeat': {
      const body = node.body.kind === 'literal' || node.body.kind === 'other' || node.body.kind === 'group' ? emit(node.body) : `(?:${emit(node.body)})`;
      const { min, max } = node;
      const op = min === 0 && max === Infinity ? '*' : min === 1 && max === Infinity ? '+' : min === 0 && max === 1 ? '?' : max === Infinity ? `{${min},}` : min === max ? `{${min}}` : `{${min},${max}}`;
      return body + op;
    }
  }
}

/**
 * A sequence. RE2 has no "start of word" or "end of word", only \b; `\<` before a word
 * character and `\>` after one are exactly \b there, which covers `\<word\>`. Elsewhere they
 * are refused (emit()).
 */
function emitSequence(items: Node[]): string {
  return items
    .map((item, index) => {
      if (item.kind !== 'wordEdge') return emit(item);
      const neighbour = item.start ? items[index + 1] : items[index - 1];
      return neighbour !== undefined && isWordy(neighbour, item.start) ? '\\b' : emit(item);
    })
    .join('');
}

/** Whether `node` always starts (or ends) with a word character. */
function isWordy(node: Node, atStart: boolean): boolean {
  switch (node.kind) {
    case 'literal':
      return isWordChar(node.char);
    case 'other':
      return node.wordChars === true;
    case 'repeat':
      return node.min >= 1 && isWordy(node.body, atStart);
    case 'group':
      return isWordy(node.body, atStart);
    case 'concat': {
      const edge = atStart ? node.items[0] : node.items[node.items.length - 1];
      return edge !== undefined && isWordy(edge, atStart);
    }
    case 'alternation':
      return node.branches.every((branch) => isWordy(branch, atStart));
    default:
      return false;
  }
}

interface Literals {
  /** Every string the node matches, when few and short. */
  exact?: string[];
  /** Strings of which each match holds one. */
  required?: string[];
}

function literalsOf(node: Node): string[] | undefined {
  const info = analyse(node);
  return usable(info.exact) ?? info.required;
}

function usable(set: string[] | undefined): string[] | undefined {
  return set !== undefined && set.length > 0 && set.every((text) => text.length > 0) ? set : undefined;
}

/** The better prefilter of two: the one whose shortest string is longer, then the one with fewer. */
function better(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const shortest = (set: string[]) => Math.min(...set.map((text) => text.length));
  if (shortest(a) !== shortest(b)) return shortest(a) > shortest(b) ? a : b;
  return a.length <= b.length ? a : b;
}

function cross(a: string[], b: string[]): string[] | undefined {
  if (a.length * b.length > MAX_SET) return undefined;
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  const list = [...out];
  return list.some((text) => text.length > MAX_LITERAL) ? undefined : list;
}

function analyse(node: Node): Literals {
  switch (node.kind) {
    case 'literal':
      return { exact: [node.char] };
    case 'empty':
    case 'wordEdge':
      return { exact: [''] };
    case 'other':
      return node.chars ? { exact: node.chars } : {};
    case 'group':
      return analyse(node.body);
    case 'alternation': {
      const parts = node.branches.map(analyse);
      const union = (sets: (string[] | undefined)[]) => {
        if (sets.some((set) => set === undefined)) return undefined;
        const all = [...new Set(sets.flat() as string[])];
        return all.length <= MAX_SET ? all : undefined;
      };
      return { exact: union(parts.map((part) => part.exact)), required: union(parts.map((part) => usable(part.exact) ?? part.required)) };
    }
    case 'repeat': {
      const body = analyse(node.body);
      if (node.min === 0) return {};
      let exact: string[] | undefined;
      if (node.min === node.max && body.exact) {
        exact = [''];
        for (let i = 0; i < node.min && exact; i++) exact = cross(exact, body.exact);
      }
      return { exact, required: usable(body.exact) ?? body.required };
    }
    case 'concat': {
      let best: string[] | undefined;
      let run: string[] = [''];
      let whole = true;
      for (const item of node.items) {
        const info = analyse(item);
        const joined = info.exact ? cross(run, info.exact) : undefined;
        if (joined) {
          run = joined;
          continue;
        }
        whole = false;
        best = better(best, usable(run));
        if (info.exact) run = info.exact;
        else {
          best = better(best, info.required);
          run = [''];
        }
      }
      best = better(best, usable(run));
      return { exact: whole ? run : undefined, required: best };
    }
  }
}

/** A sequence of single-character matchers, as an extended regex git matches in time linear in the line. */
interface Fragment {
  ere: string;
  /** Characters it spans (the shortest alternative's). */
  length: number;
  /** Alternatives, each a sequence (git's engine follows this many at once). */
  count?: number;
}


function ereLiteral(char: string): string {
  return '.[]()*+?{}|^$\\'.includes(char) ? `\\${char}` : char;
}

/** The node as a sequence of single characters, when it is exactly one (zero-width parts dropped). */
function sequenceOf(node: Node): Fragment | undefined {
  switch (node.kind) {
    case 'literal':
      return { ere: ereLiteral(node.char), length: 1 };
    case 'other':
      return node.ere === undefined ? undefined : { ere: node.ere, length: 1 };
    case 'empty':
    case 'wordEdge':
      // A superset: the characters around an anchor are still next to each other.
      return { ere: '', length: 0 };
    case 'group':
      return sequenceOf(node.body);
    case 'concat': {
      const parts = node.items.map(sequenceOf);
      if (parts.some((part) => part === undefined)) return undefined;
      return fit({ ere: parts.map((part) => part!.ere).join(''), length: parts.reduce((sum, part) => sum + part!.length, 0) });
    }
    case 'repeat':
      return node.min === node.max ? repeated(sequenceOf(node.body), node.min) : undefined;
    default:
      return undefined;
  }
}

function fit(fragment: Fragment | undefined): Fragment | undefined {
  return fragment && fragment.length <= MAX_FRAGMENT ? fragment : undefined;
}

function repeated(fragment: Fragment | undefined, count: number): Fragment | undefined {
  if (!fragment || fragment.length * count > MAX_FRAGMENT) return undefined;
  return { ere: fragment.ere.repeat(count), length: fragment.length * count };
}

function longer(a: Fragment | undefined, b: Fragment | undefined): Fragment | undefined {
  if (!a) return b;
  if (!b) return a;
  return b.length > a.length ? b : a;
}

/**
 * A matcher of one character that may be several bytes (`.`, `\W`, `\S`, a negated ASCII
 * class), or one or more of them in a row, as git's C locale reads it: a byte. One byte of
 * such a character is next to what comes before it (its first) or after it (its last), so it
 * may stand at either end of a sequence git looks for, never inside one.
 */
function wideOf(node: Node): string | undefined {
  if (node.kind === 'other') return node.wide;
  if (node.kind === 'repeat' && node.min > 0 && node.body.kind === 'other') return node.body.wide;
  return undefined;
}

/** The longest sequence of single characters that every match of `node` holds somewhere. */
function fragmentOf(node: Node): Fragment | undefined {
  const whole = sequenceOf(node);
  if (whole) return whole;
  const wide = wideOf(node);
  if (wide) return { ere: wide, length: 1 };
  switch (node.kind) {
    case 'group':
      return fragmentOf(node.body);
    case 'repeat':
      // At least `min` copies in a row: the first ones are a sequence if the body is one.
      return node.min === 0 ? undefined : longer(repeated(sequenceOf(node.body), node.min), fragmentOf(node.body));
    case 'alternation': {
      const branches = node.branches.map(fragmentOf);
      if (branches.some((branch) => !branch || branch.length === 0)) return undefined;
      const count = branches.reduce((sum, branch) => sum + (branch!.count ?? 1), 0);
      if (count > MAX_SET) return undefined;
      return { ere: `(${branches.map((branch) => branch!.ere).join('|')})`, length: Math.min(...branches.map((branch) => branch!.length)), count };
    }
    case 'concat': {
      // Runs of items that are sequences; an item repeated at least n times ends the run
      // before it with its first n copies and starts the next with its last n.
      let best: Fragment | undefined;
      let run: Fragment | undefined = { ere: '', length: 0 };
      for (const item of node.items) {
        const part = sequenceOf(item);
        if (part) {
          run = run ? fit({ ere: run.ere + part.ere, length: run.length + part.length }) : part;
          if (!run) run = part;
          continue;
        }
        // A character of several bytes ends a run and starts the next (see wideOf).
        const wide = wideOf(item);
        if (wide) {
          best = longer(best, run ? fit({ ere: run.ere + wide, length: run.length + 1 }) ?? run : undefined);
          run = { ere: wide, length: 1 };
          continue;
        }
        const edge = item.kind === 'repeat' && item.min > 0 ? repeated(sequenceOf(item.body), item.min) : undefined;
        best = longer(best, run && edge ? fit({ ere: run.ere + edge.ere, length: run.length + edge.length }) ?? run : run);
        best = longer(best, fragmentOf(item));
        run = edge ?? { ere: '', length: 0 };
      }
      return longer(best, run);
    }
    default:
      return undefined;
  }
}
