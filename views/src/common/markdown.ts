// A small markdown renderer that builds DOM nodes, never HTML: raw HTML in the source is
// shown as text, links keep only http(s) and mailto targets (no javascript:, no data:)
// and open through the host, images are placeholders (a view loads nothing remote).
import { h } from './dom.js';
import { codeBlock, languageOf } from './highlight.js';

export interface MarkdownOptions {
  /** Called when a link is clicked (the view asks the host to open it). */
  onLink?: (url: string) => void;
}

const SAFE_LINK = /^(https?:|mailto:)/i;

export function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  return SAFE_LINK.test(trimmed) ? trimmed : undefined;
}

const INLINE =
  /\\(?<esc>[\\`*_{}[\]()#+\-.!|<>~])|(?<code>(?<ticks>`+)(?<codeText>[\s\S]*?[^`])\k<ticks>(?!`))|\*\*(?<strong>[^*]+?)\*\*|__(?<strong2>[^_]+?)__|\*(?<em>[^*\s][^*]*?)\*|(?<![\w])_(?<em2>[^_\s][^_]*?)_(?![\w])|!\[(?<alt>[^\]]*)\]\((?<src>[^)\s]*)(?:\s+"[^"]*")?\)|\[(?<text>[^\]]+)\]\((?<href>[^)\s]*)(?:\s+"[^"]*")?\)|<(?<auto>https?:\/\/[^>\s]+)>/g;

function inline(text: string, options: MarkdownOptions): Node[] {
  const nodes: Node[] = [];
  const pattern = new RegExp(INLINE.source, 'g');
  let last = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > last) nodes.push(document.createTextNode(text.slice(last, m.index)));
    last = m.index + m[0].length;
    const g = m.groups!;
    if (g.esc !== undefined) nodes.push(document.createTextNode(g.esc));
    else if (g.code !== undefined) nodes.push(h('code', {}, g.codeText!.trim()));
    else if (g.strong ?? g.strong2) nodes.push(h('strong', {}, ...inline((g.strong ?? g.strong2)!, options)));
    else if (g.em ?? g.em2) nodes.push(h('em', {}, ...inline((g.em ?? g.em2)!, options)));
    else if (g.src !== undefined) nodes.push(h('span', { class: 'img-placeholder', title: g.src }, `[image${g.alt ? `: ${g.alt}` : ''}]`));
    else if (g.text !== undefined || g.auto !== undefined) {
      const href = safeHref(g.href ?? g.auto!);
      const label = g.text !== undefined ? inline(g.text, options) : [document.createTextNode(g.auto!)];
      if (!href) {
        nodes.push(h('span', { class: 'unsafe-link' }, ...label));
        continue;
      }
      const a = h('a', { href, rel: 'noopener noreferrer', target: '_blank' }, ...label);
      a.addEventListener('click', (event) => {
        event.preventDefault();
        options.onLink?.(href);
      });
      nodes.push(a);
    }
  }
  if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
  return nodes;
}

const FENCE = /^(\s{0,3})(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>\s?/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));

const startsBlock = (line: string, next: string | undefined) =>
  FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line) || (line.includes('|') && next !== undefined && TABLE_RULE.test(next));

/** Renders markdown into a fragment. */
export function renderMarkdown(source: string, options: MarkdownOptions = {}): DocumentFragment {
  const out = document.createDocumentFragment();
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].trimStart().startsWith(fence[2]); i++) body.push(lines[i]);
      i++;
      out.append(codeBlock(body.join('\n'), languageOf(fence[3] || '')));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      out.append(h(`h${heading[1].length}` as 'h1', {}, ...inline(heading[2], options)));
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.append(h('hr'));
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      for (; i < lines.length && QUOTE.test(lines[i]); i++) body.push(lines[i].replace(QUOTE, ''));
      out.append(h('blockquote', {}, renderMarkdown(body.join('\n'), options)));
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1])) {
      const head = cellsOf(line);
      const rows: string[][] = [];
      for (i += 2; i < lines.length && lines[i].includes('|') && lines[i].trim(); i++) rows.push(cellsOf(lines[i]));
      out.append(
        h(
          'table',
          { class: 'md-table' },
          h('thead', {}, h('tr', {}, ...head.map((cell) => h('th', {}, ...inline(cell, options))))),
          h('tbody', {}, ...rows.map((row) => h('tr', {}, ...head.map((_, c) => h('td', {}, ...inline(row[c] ?? '', options)))))),
        ),
      );
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const ordered = /\d/.test(item[2]);
      const list = h(ordered ? 'ol' : 'ul', ordered && parseInt(item[2], 10) !== 1 ? { start: parseInt(item[2], 10) } : {});
      const indent = item[1].length;
      while (i < lines.length) {
        const current = ITEM.exec(lines[i]);
        if (!current || current[1].length !== indent) break;
        const body = [current[3]];
        for (i++; i < lines.length && lines[i].trim() && !(ITEM.exec(lines[i])?.[1].length === indent) && (/^\s/.test(lines[i]) || !startsBlock(lines[i], lines[i + 1])); i++) {
          body.push(lines[i].replace(/^\s{1,4}/, ''));
        }
        const [first, ...rest] = body;
        const li = h('li', {}, ...inline(first, options));
        if (rest.length) li.append(renderMarkdown(rest.join('\n'), options));
        list.append(li);
        while (i < lines.length && !lines[i].trim() && ITEM.exec(lines[i + 1] ?? '')?.[1].length === indent) i++;
      }
      out.append(list);
      continue;
    }
    const paragraph: string[] = [];
    for (; i < lines.length && lines[i].trim() && (paragraph.length === 0 || !startsBlock(lines[i], lines[i + 1])); i++) paragraph.push(lines[i].trim());
    out.append(h('p', {}, ...inline(paragraph.join('\n'), options)));
  }
  return out;
}
