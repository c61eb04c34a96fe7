// Writes an extracted article (a light tree, see html-tree.ts) as GitHub-flavoured
// markdown. Every element that is not phrasing content is a block of its own, whatever its
// tag (a td or a body holding the article is as much a block as a div); <pre> keeps every
// line break (<br> and block children included); MathML becomes its TeX annotation, or its
// text; data tables become GFM tables and layout tables their cells' blocks. Output is
// built in arrays joined once, so the time is linear in the size of the tree.
import { firstElement, isText, nextElement, textContent, type HNode } from './html-tree.js';

const INLINE = new Set([
  'a', 'abbr', 'acronym', 'b', 'bdi', 'bdo', 'big', 'br', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'img', 'input', 'ins', 'kbd',
  'label', 'mark', 'math', 'meter', 'nobr', 'output', 'progress', 'q', 'rp', 'rt', 'ruby', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub',
  'sup', 'time', 'tt', 'u', 'var', 'wbr',
]);
const LAYOUT_CELL_CHILD = new Set(['p', 'div', 'ul', 'ol', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'table', 'section', 'article']);

const isInline = (node: HNode) => isText(node) || INLINE.has(node.tag);
// Each rewrite runs only when its test finds work: most text needs none, and on a page of
// many short blocks the copies these calls made were most of the conversion's garbage.
const escape = (text: string) => (/[\\`*_[\]]/.test(text) ? text.replace(/([\\`*_[\]])/g, '\\$1') : text);
/** Whitespace runs (and any whitespace but a lone space) as one space. */
const collapse = (text: string) => (/\s\s|[^\S ]/.test(text) ? text.replace(/\s+/g, ' ') : text);

/** Pieces of one line of inline text, with whitespace collapsed across pieces. */
class Line {
  // One string grown by concatenation (V8 joins the pieces once, when the text is read): an
  // array of pieces cost an allocation per line on top of its pieces.
  private value = '';
  /**
   * A line of its own drops a leading space; the text of an element inside a line (a link,
   * emphasis) keeps it, so that `GUI<i>&nbsp;<b>Oxyd</b></i>` does not run the words together.
   */
  constructor(private space = true) {}
  add(piece: string): void {
    if (!piece) return;
    if (this.space && piece.charCodeAt(0) === 32) piece = piece.slice(1);
    if (!piece) return;
    this.value += piece;
    const last = piece.charCodeAt(piece.length - 1);
    this.space = last === 32 || last === 10;
  }
  text(): string {
    return this.value;
  }
}

export function toMarkdown(content: HNode, baseUrl: string): string {
  const absolute = (value: string) => {
    try {
      return new URL(value, baseUrl).href;
    } catch {
      return value;
    }
  };

  const mathText = (math: HNode): string => {
    let tex = '';
    for (let at = firstElement(math); at && !tex; at = nextElementDeep(at, math)) {
      if (at.tag === 'annotation' && /tex/i.test(at.attrs.encoding ?? '')) tex = textContent(at).trim();
    }
    if (tex) return math.attrs.display === 'block' ? `$$${tex}$$` : `$${tex}$`;
    // Without TeX: the tokens (mi, mo, mn...) in order, one space apart.
    const tokens: string[] = [];
    for (let at = firstElement(math); at; at = nextElementDeep(at, math)) {
      for (let child = at.first; child; child = child.next) if (isText(child) && child.data.trim()) tokens.push(child.data.trim());
    }
    return tokens.join(' ');
  };

  const imageSource = (img: HNode): string | undefined => {
    const { src } = img.attrs;
    const lazy = img.attrs['data-src'] ?? img.attrs['data-original'] ?? img.attrs['data-lazy-src'] ?? img.attrs['data-url'];
    if ((!src || src.startsWith('data:')) && lazy) return lazy;
    if (!src && img.attrs.srcset) return img.attrs.srcset.trim().split(/\s+/)[0];
    return src && !src.startsWith('data:') ? src : undefined;
  };

  const inlineInto = (parent: HNode, line: Line): void => {
    for (let node = parent.first; node; node = node.next) inlineNode(node, line);
  };
  const inline = (parent: HNode, nested = false): string => {
    const line = new Line(!nested);
    inlineInto(parent, line);
    return line.text();
  };
  const wrap = (mark: string, text: string) => {
    const trimmed = text.trim();
    if (!trimmed) return text;
    return `${text.startsWith(' ') ? ' ' : ''}${mark}${trimmed}${mark}${text.endsWith(' ') ? ' ' : ''}`;
  };
  const inlineNode = (node: HNode, line: Line): void => {
    if (isText(node)) return line.add(escape(collapse(node.data)));
    switch (node.tag) {
      case 'br':
        return line.add('  \n');
      case 'input':
        return;
      case 'img': {
        const src = imageSource(node);
        if (src) line.add(`![${escape((node.attrs.alt ?? '').replace(/\s+/g, ' ').trim())}](${absolute(src).replace(/[()\s]/g, (c) => encodeURIComponent(c))})`);
        return;
      }
      case 'math':
        return line.add(mathText(node));
      case 'a': {
        const text = inline(node, true);
        const href = node.attrs.href;
        if (!href || href.startsWith('#') || /^\s*javascript:/i.test(href) || !text.trim()) return line.add(text);
        const target = absolute(href.trim()).replace(/[()\s]/g, (c) => encodeURIComponent(c));
        return line.add(`${text.startsWith(' ') ? ' ' : ''}[${text.trim()}](${target})${text.endsWith(' ') ? ' ' : ''}`);
      }
      case 'strong':
      case 'b':
        return line.add(wrap('**', inline(node, true)));
      case 'em':
      case 'i':
        return line.add(wrap('_', inline(node, true)));
      case 'del':
      case 's':
      case 'strike':
        return line.add(wrap('~~', inline(node, true)));
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt': {
        const code = textContent(node).replace(/\s+/g, ' ');
        if (!code.trim()) return line.add(code);
        const fence = code.includes('`') ? '``' : '`';
        return line.add(`${fence}${code.startsWith('`') ? ' ' : ''}${code}${code.endsWith('`') ? ' ' : ''}${fence}`);
      }
      default:
        if (INLINE.has(node.tag)) return inlineInto(node, line);
        // A block inside inline content (a div in a link): its text, set apart by spaces.
        line.add(' ');
        inlineInto(node, line);
        line.add(' ');
    }
  };

  const paragraph = (text: string, out: string[]) => {
    // A paragraph that starts like a heading, list or quote must not become one.
    let clean = text.includes('\n') ? text.replace(/[ \t]*\n[ \t]*/g, '\n').replace(/\n{3,}/g, '\n\n').trim() : text.trim();
    if (/^([#>+-]|\d+\.)\s/.test(clean)) clean = `\\${clean}`;
    if (clean) out.push(clean);
  };

  const blocks = (parent: HNode, out: string[]): void => {
    let line: Line | undefined;
    for (let node = parent.first; node; node = node.next) {
      if (isInline(node)) {
        if (!line) line = new Line();
        inlineNode(node, line);
        continue;
      }
      if (line) {
        paragraph(line.text(), out);
        line = undefined;
      }
      block(node, out);
    }
    if (line) paragraph(line.text(), out);
  };

  const list = (el: HNode, out: string[]) => {
    const ordered = el.tag === 'ol';
    let n = Number(el.attrs.start ?? 1) || 1;
    const items: string[] = [];
    let loose: Line | undefined;
    const flushLoose = () => {
      const text = loose?.text().trim();
      if (text) items.push(`- ${text}`);
      loose = undefined;
    };
    for (let child = el.first; child; child = child.next) {
      if (isInline(child)) {
        loose ??= new Line();
        inlineNode(child, loose);
        continue;
      }
      flushLoose();
      const inner: string[] = [];
      if (child.tag === 'li') blocks(child, inner);
      else block(child, inner);
      if (inner.length === 0) continue;
      const marker = ordered ? `${n++}. ` : '- ';
      const pad = ' '.repeat(marker.length);
      items.push(`${marker}${inner.join('\n\n').replace(/\n/g, `\n${pad}`).replace(/\n\s+\n/g, '\n\n')}`);
    }
    flushLoose();
    if (items.length) out.push(items.join('\n'));
  };

  const rowsOf = (table: HNode): HNode[] => {
    const rows: HNode[] = [];
    const walk = (node: HNode) => {
      for (let child = firstElement(node); child; child = nextElement(child)) {
        if (child.tag === 'tr') rows.push(child);
        else if (child.tag === 'thead' || child.tag === 'tbody' || child.tag === 'tfoot') walk(child);
      }
    };
    walk(table);
    return rows;
  };
  const isLayoutTable = (table: HNode, rows: HNode[]): boolean => {
    for (const row of rows) {
      for (let cell = firstElement(row); cell; cell = nextElement(cell)) {
        for (let child = firstElement(cell); child; child = nextElement(child)) if (LAYOUT_CELL_CHILD.has(child.tag)) return true;
      }
    }
    return rows.length === 0 && !!table.first;
  };
  const table = (el: HNode, out: string[]) => {
    const rowNodes = rowsOf(el);
    if (isLayoutTable(el, rowNodes)) {
      for (const row of rowNodes) for (let cell = firstElement(row); cell; cell = nextElement(cell)) blocks(cell, out);
      if (rowNodes.length === 0) blocks(el, out);
      return;
    }
    const rows: string[][] = [];
    let headed = false;
    for (const row of rowNodes) {
      const cells: string[] = [];
      let allHeads = true;
      for (let cell = firstElement(row); cell; cell = nextElement(cell)) {
        if (cell.tag !== 'td' && cell.tag !== 'th') continue;
        if (cell.tag !== 'th') allHeads = false;
        const text = inline(cell).replace(/\s*\n\s*/g, ' ').trim().replace(/\|/g, '\\|');
        cells.push(text);
        const span = Math.min(Number.parseInt(cell.attrs.colspan ?? '', 10) || 1, 50);
        for (let i = 1; i < span; i++) cells.push('');
      }
      if (rows.length === 0 && cells.length && allHeads) headed = true;
      rows.push(cells);
    }
    const caption = firstElement(el);
    if (caption?.tag === 'caption') paragraph(inline(caption), out);
    const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
    if (width === 0) return;
    const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
    const header = headed ? rows.shift()! : new Array<string>(width).fill('');
    out.push([line(header), line(new Array<string>(width).fill('---')), ...rows.map(line)].join('\n'));
  };

  const preText = (pre: HNode): string => {
    const parts: string[] = [];
    const walk = (node: HNode) => {
      for (let child = node.first; child; child = child.next) {
        if (isText(child)) parts.push(child.data);
        else if (child.tag === 'br') parts.push('\n');
        else {
          const isBlock = !INLINE.has(child.tag);
          if (isBlock && parts.length && !parts[parts.length - 1].endsWith('\n')) parts.push('\n');
          walk(child);
          if (isBlock && parts.length && !parts[parts.length - 1].endsWith('\n')) parts.push('\n');
        }
      }
    };
    walk(pre);
    // Not /\s+$/: on a long run of spaces inside the block that regex takes quadratic time.
    const text = parts.join('');
    const start = text.startsWith('\n') ? 1 : 0;
    let end = text.length;
    while (end > start && /\s/.test(text[end - 1])) end--;
    return text.slice(start, end);
  };

  const block = (el: HNode, out: string[]): void => {
    const tag = el.tag;
    if (tag.length === 2 && tag[0] === 'h' && tag[1] >= '1' && tag[1] <= '6') {
      const text = inline(el).replace(/\s*\n\s*/g, ' ').trim();
      if (text) out.push(`${'#'.repeat(Number(tag[1]))} ${text}`);
    } else if (tag === 'ul' || tag === 'ol') list(el, out);
    else if (tag === 'table') table(el, out);
    else if (tag === 'hr') out.push('---');
    else if (tag === 'pre') {
      const code = firstElement(el);
      const language = /(?:lang|language)-([\w+#-]+)/.exec(`${code?.tag === 'code' ? code.attrs.class ?? '' : ''} ${el.attrs.class ?? ''}`)?.[1] ?? '';
      const text = preText(el);
      if (!text.trim()) return;
      const fence = text.includes('```') ? '~~~~' : '```';
      out.push(`${fence}${language}\n${text}\n${fence}`);
    } else if (tag === 'blockquote') {
      const inner: string[] = [];
      blocks(el, inner);
      if (inner.length) out.push(inner.join('\n\n').replace(/^/gm, '> ').replace(/^> $/gm, '>'));
    } else blocks(el, out);
  };

  const out: string[] = [];
  if (isInline(content)) {
    const line = new Line();
    inlineNode(content, line);
    paragraph(line.text(), out);
  } else block(content, out);
  return out.join('\n\n').trim();
}

/** Depth-first successor of `node` within `root`. */
function nextElementDeep(node: HNode, root: HNode): HNode | null {
  const child = firstElement(node);
  if (child) return child;
  for (let at: HNode | null = node; at && at !== root; at = at.parent) {
    const sibling = nextElement(at);
    if (sibling) return sibling;
  }
  return null;
}
