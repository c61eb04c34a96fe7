// A small syntax highlighter: one regular expression per language family, tokens turned
// into text nodes inside spans (never HTML), split into lines for line numbers.
import { h } from './dom.js';

type Token = [cls: string | undefined, text: string];

const C_KEYWORDS =
  'abstract|as|async|await|break|case|catch|class|const|continue|debugger|default|defer|delete|do|else|enum|export|extends|false|final|finally|fn|for|from|func|function|go|if|impl|implements|import|in|instanceof|interface|let|loop|match|mod|mut|namespace|new|nil|null|package|private|protected|pub|public|readonly|return|select|static|struct|super|switch|this|throw|throws|trait|true|try|type|typeof|undefined|use|var|void|where|while|with|yield';
const HASH_KEYWORDS =
  'and|as|assert|async|await|begin|break|case|class|def|del|do|done|elif|else|elsif|end|esac|except|export|false|fi|finally|for|from|function|global|if|import|in|is|lambda|local|module|next|nil|none|None|not|or|pass|raise|require|rescue|return|then|true|True|False|try|unless|until|while|with|yield';

const FAMILIES: Record<string, RegExp> = {
  c: new RegExp(
    String.raw`(?<comment>\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|(?<string>"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|\x60(?:[^\x60\\]|\\[\s\S])*\x60?)|(?<number>\b(?:0x[\da-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?)n?\b)|(?<keyword>\b(?:${C_KEYWORDS})\b)`,
    'g',
  ),
  hash: new RegExp(
    String.raw`(?<comment>#[^\n]*)|(?<string>"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)|(?<number>\b\d+(?:\.\d+)?\b)|(?<keyword>\b(?:${HASH_KEYWORDS})\b)`,
    'g',
  ),
  json: /(?<string>"(?:[^"\\\n]|\\.)*"?)|(?<number>-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b)|(?<keyword>\b(?:true|false|null)\b)/g,
  markup: /(?<comment><!--[\s\S]*?(?:-->|$))|(?<keyword><\/?[A-Za-z][\w:-]*|\/?>)|(?<string>"[^"\n]*"|'[^'\n]*')/g,
  sql: /(?<comment>--[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|(?<string>'(?:[^']|'')*'?)|(?<number>\b\d+(?:\.\d+)?\b)|(?<keyword>\b(?:select|from|where|and|or|not|insert|into|values|update|set|delete|create|table|index|view|join|left|right|inner|outer|on|group|by|order|having|limit|offset|as|distinct|union|all|null|is|in|like|case|when|then|else|end|primary|key|references|integer|text|real|blob)\b)/gi,
};

const EXTENSIONS: Record<string, string> = {};
for (const [family, extensions] of Object.entries({
  c: 'js mjs cjs jsx ts mts cts tsx java c h cc cpp hpp cs go rs swift kt kts scala php css scss less dart zig',
  hash: 'py sh bash zsh rb pl r yaml yml toml ini conf cfg dockerfile makefile mk nix ps1 tf',
  json: 'json jsonc json5 ipynb lock',
  markup: 'html htm xml svg vue xhtml plist',
  sql: 'sql',
})) {
  for (const extension of extensions.split(' ')) EXTENSIONS[extension] = family;
}

/** The family of a file name or a fence's language, if any. */
export function languageOf(nameOrLang: string): string | undefined {
  const lower = nameOrLang.toLowerCase();
  const base = lower.slice(lower.lastIndexOf('/') + 1);
  if (EXTENSIONS[base]) return EXTENSIONS[base];
  const extension = base.includes('.') ? base.slice(base.lastIndexOf('.') + 1) : base;
  return EXTENSIONS[extension] ?? ({ javascript: 'c', typescript: 'c', python: 'hash', shell: 'hash', rust: 'c', golang: 'c', ruby: 'hash' } as Record<string, string>)[extension];
}

function tokenize(text: string, family: string | undefined): Token[] {
  const pattern = family ? FAMILIES[family] : undefined;
  if (!pattern) return [[undefined, text]];
  const tokens: Token[] = [];
  let last = 0;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0] === '') {
      pattern.lastIndex++;
      continue;
    }
    if (match.index > last) tokens.push([undefined, text.slice(last, match.index)]);
    const cls = Object.entries(match.groups ?? {}).find(([, value]) => value !== undefined)?.[0];
    tokens.push([cls ? `tok-${cls}` : undefined, match[0]]);
    last = match.index + match[0].length;
  }
  if (last < text.length) tokens.push([undefined, text.slice(last)]);
  return tokens;
}

/** The text highlighted as one element per line (tokens that span lines are split). */
export function highlightLines(text: string, family: string | undefined): HTMLElement[] {
  const lines: HTMLElement[] = [h('span', { class: 'line' })];
  for (const [cls, value] of tokenize(text, family)) {
    const parts = value.split('\n');
    parts.forEach((part, index) => {
      if (index > 0) lines.push(h('span', { class: 'line' }));
      if (part) lines[lines.length - 1].append(cls ? h('span', { class: cls }, part) : document.createTextNode(part));
    });
  }
  return lines;
}

/** A code block with or without line numbers (`first` is the number of the first line). */
export function codeBlock(text: string, family: string | undefined, first?: number): HTMLElement {
  const lines = highlightLines(text.endsWith('\n') ? text.slice(0, -1) : text, family);
  const code = h('code', {});
  lines.forEach((line, index) => {
    if (first !== undefined) line.prepend(h('span', { class: 'ln', 'aria-hidden': 'true' }, String(first + index)));
    code.append(line, '\n');
  });
  return h('pre', { class: first === undefined ? 'code' : 'code numbered' }, code);
}
