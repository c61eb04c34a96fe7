// The one place that knows how HTML becomes markdown: swap the engine here and nothing
// else changes.
//
// Engine: htmlparser2's streaming tokenizer builds a light tree (boilerplate subtrees are
// never built), the main content is picked the way Readability does it (semantic
// <main>/<article> first, else paragraph scores with link density), and a small emitter
// writes GFM. Measured on this machine, linkedom + @mozilla/readability + turndown took
// about 3.5 s for a 1.2 MB article (linkedom recomputes child lists on every access, which
// Readability and turndown do constantly); this takes a few tens of milliseconds.
import { Parser } from 'htmlparser2';

export interface ConvertInput {
  html: string;
  /** The page's URL: relative links and images become absolute against it. */
  url: string;
}

export interface Converted {
  title: string;
  markdown: string;
}

/** HTML to clean markdown, on the calling thread (see converter.ts for off-thread use). */
export function htmlToMarkdown(input: ConvertInput): Converted {
  return convertWith(Parser as unknown as ParserClass, input);
}

export type ParserClass = new (
  handler: {
    onopentag(name: string, attribs: Record<string, string>): void;
    ontext(text: string): void;
    onclosetag(name: string): void;
  },
  options: { decodeEntities: boolean; lowerCaseTags: boolean; lowerCaseAttributeNames: boolean },
) => { write(html: string): void; end(): void };

/**
 * The conversion. Self-contained (it uses only its arguments and globals) so that its
 * source can run in a worker that loads htmlparser2 by path during development.
 */
export const convertWith = (ParserImpl: ParserClass, input: ConvertInput): Converted => {
  interface El {
    tag: string;
    attrs: Record<string, string>;
    children: (El | string)[];
    parent: El | undefined;
    text?: number;
    links?: number;
    score?: number;
  }
  // Subtrees that never hold content a reader wants.
  const SKIP = new Set([
    'script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas', 'math',
    'form', 'button', 'select', 'textarea', 'input', 'label', 'dialog', 'nav', 'footer', 'aside', 'head', 'link', 'meta',
  ]);
  const SKIP_ROLES = /^(navigation|banner|contentinfo|complementary|dialog|alertdialog|search|menu|menubar|toolbar)$/;
  // Readability's "unlikely candidates", plus consent banners.
  const UNLIKELY =
    /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|cookie|consent|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|newsletter|share|yom-remote/i;
  const MAYBE = /and|article|body|column|content|main|mathjax|shadow|post/i;
  const VOID = new Set(['br', 'hr', 'img', 'wbr', 'area', 'base', 'col', 'source', 'track', 'input', 'link', 'meta', 'param', 'embed']);

  const root: El = { tag: 'root', attrs: {}, children: [], parent: undefined };
  // Every element in document order.
  const all: El[] = [];
  let current = root;
  let skipDepth = 0;
  let inTitle = false;
  let title = '';
  // One entry per open tag: kept in the tree, skipped (boilerplate), or flattened (nested
  // too deep: its children join the deepest kept element, so no walk below recurses far).
  const MAX_DEPTH = 200;
  const kept: ('kept' | 'skipped' | 'flat')[] = [];
  let depth = 0;
  const isBoilerplate = (name: string, attrs: Record<string, string>): boolean => {
    if (SKIP.has(name)) return true;
    if (attrs.hidden !== undefined || attrs['aria-hidden'] === 'true' || attrs['aria-modal'] === 'true') return true;
    if (attrs.role && SKIP_ROLES.test(attrs.role)) return true;
    if (/display\s*:\s*none/i.test(attrs.style ?? '')) return true;
    if (name === 'body' || name === 'html' || name === 'main' || name === 'article' || name === 'a' || name === 'code' || name === 'pre') return false;
    const marks = `${attrs.class ?? ''} ${attrs.id ?? ''}`;
    return marks.length > 1 && UNLIKELY.test(marks) && !MAYBE.test(marks);
  };
  const parser = new ParserImpl(
    {
      onopentag(name, attrs) {
        if (name === 'title' && !title) inTitle = true;
        if (skipDepth > 0 || isBoilerplate(name, attrs)) {
          if (!VOID.has(name)) skipDepth++;
          kept.push('skipped');
          return;
        }
        if (depth >= MAX_DEPTH) {
          kept.push('flat');
          return;
        }
        const el: El = { tag: name, attrs, children: [], parent: current };
        current.children.push(el);
        all.push(el);
        if (!VOID.has(name)) {
          current = el;
          depth++;
        }
        kept.push('kept');
      },
      ontext(text) {
        if (inTitle) title += text;
        if (skipDepth > 0) return;
        const last = current.children[current.children.length - 1];
        if (typeof last === 'string') current.children[current.children.length - 1] = last + text;
        else current.children.push(text);
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        const state = kept.pop();
        if (VOID.has(name) || state === 'flat') return;
        if (state === 'skipped') skipDepth--;
        else if (current.parent) {
          current = current.parent;
          depth--;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(input.html);
  parser.end();
  title = title.replace(/\s+/g, ' ').trim();

  // Text and link-text lengths, computed once per element.
  const measure = (el: El): void => {
    let text = 0;
    let links = 0;
    for (const child of el.children) {
      if (typeof child === 'string') {
        text += child.trim().length;
        continue;
      }
      measure(child);
      text += child.text!;
      links += child.tag === 'a' ? child.text! : child.links!;
    }
    el.text = text;
    el.links = links;
  };
  measure(root);
  const body = all.find((el) => el.tag === 'body') ?? root;
  const density = (el: El) => (el.text ? el.links! / el.text : 0);

  // 1. Semantic markup: <main> (or role=main), else the articles (their common parent if several).
  const mains = all.filter((el) => el.tag === 'main' || el.attrs.role === 'main');
  const articles = all.filter((el) => el.tag === 'article');
  let content: El | undefined = mains.sort((a, b) => b.text! - a.text!)[0];
  if (!content && articles.length === 1) content = articles[0];
  if (!content && articles.length > 1) {
    const chain = (el: El) => {
      const up: El[] = [];
      for (let at: El | undefined = el; at; at = at.parent) up.push(at);
      return up;
    };
    const shared = new Set(chain(articles[0]));
    for (const article of articles.slice(1)) {
      const mine = new Set(chain(article));
      for (const el of shared) if (!mine.has(el)) shared.delete(el);
    }
    content = chain(articles[0]).find((el) => shared.has(el));
  }
  if (content && content.text! < body.text! * 0.15) content = undefined;
  // 2. Readability's scoring: paragraphs vote for their parent and grandparent.
  if (!content) {
    const scored: El[] = [];
    for (const el of all) {
      if (!/^(p|pre|td|blockquote|li|section|div)$/.test(el.tag)) continue;
      const direct = el.children.reduce((n, child) => n + (typeof child === 'string' ? child.trim().length : 0), 0);
      const length = el.tag === 'p' || el.tag === 'pre' || el.tag === 'td' || el.tag === 'blockquote' ? el.text! : direct;
      if (length < 25) continue;
      const points = 1 + (el.children.filter((c) => typeof c === 'string').join('').split(',').length - 1) + Math.min(3, Math.floor(length / 100));
      const parent = el.parent;
      if (parent && parent !== root) {
        if (parent.score === undefined) scored.push(parent);
        parent.score = (parent.score ?? 0) + points;
        const grand = parent.parent;
        if (grand && grand !== root) {
          if (grand.score === undefined) scored.push(grand);
          grand.score = (grand.score ?? 0) + points / 2;
        }
      }
    }
    let best: El | undefined;
    for (const el of scored) {
      el.score = el.score! * (1 - density(el));
      if (!best || el.score > best.score!) best = el;
    }
    // A candidate's parent that holds much more of the page's prose is the better pick.
    while (best && best.parent && best.parent !== root && best.parent.tag !== 'body' && (best.parent.score ?? 0) > best.score! * 0.75) {
      best = best.parent;
    }
    content = best && best.text! >= body.text! * 0.2 ? best : body;
  }

  // Markdown.
  const absolute = (value: string) => {
    try {
      return new URL(value, input.url).href;
    } catch {
      return value;
    }
  };
  const escape = (text: string) => text.replace(/([\\`*_[\]])/g, '\\$1');
  const textOf = (el: El): string => el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
  const BLOCK = /^(p|div|section|article|main|header|h[1-6]|ul|ol|li|pre|blockquote|table|hr|figure|figcaption|dl|dt|dd|address|details|summary|center)$/;

  const inline = (nodes: (El | string)[]): string => {
    let out = '';
    for (const node of nodes) {
      let piece: string;
      if (typeof node === 'string') piece = escape(node.replace(/\s+/g, ' '));
      else if (BLOCK.test(node.tag) || node.tag === 'table') piece = ` ${inline(node.children)} `;
      else piece = inlineEl(node);
      if (out.endsWith(' ') && piece.startsWith(' ')) piece = piece.slice(1);
      out += piece;
    }
    return out;
  };
  const wrap = (mark: string, text: string) => {
    const trimmed = text.trim();
    if (!trimmed) return text;
    return `${text.startsWith(' ') ? ' ' : ''}${mark}${trimmed}${mark}${text.endsWith(' ') ? ' ' : ''}`;
  };
  const inlineEl = (el: El): string => {
    switch (el.tag) {
      case 'br':
        return '  \n';
      case 'img': {
        const src = el.attrs.src;
        if (!src || src.startsWith('data:')) return '';
        return `![${escape((el.attrs.alt ?? '').replace(/\s+/g, ' ').trim())}](${absolute(src)})`;
      }
      case 'a': {
        const text = inline(el.children);
        const href = el.attrs.href;
        if (!href || href.startsWith('#') || /^javascript:/i.test(href) || !text.trim()) return text;
        return `${text.startsWith(' ') ? ' ' : ''}[${text.trim()}](${absolute(href).replace(/[()]/g, (c) => encodeURIComponent(c))})${text.endsWith(' ') ? ' ' : ''}`;
      }
      case 'strong':
      case 'b':
        return wrap('**', inline(el.children));
      case 'em':
      case 'i':
        return wrap('_', inline(el.children));
      case 'del':
      case 's':
      case 'strike':
        return wrap('~~', inline(el.children));
      case 'code':
      case 'kbd':
      case 'samp': {
        const code = textOf(el).replace(/\s+/g, ' ');
        if (!code.trim()) return code;
        const fence = code.includes('`') ? '``' : '`';
        return `${fence}${code}${fence}`;
      }
      default:
        return inline(el.children);
    }
  };

  const blocks = (nodes: (El | string)[], out: string[]): void => {
    let run: (El | string)[] = [];
    const flush = () => {
      // A paragraph that starts like a heading, list or quote must not become one.
      const text = inline(run).trim().replace(/^([#>+-]|\d+\.)(?=\s)/, '\\$1');
      if (text) out.push(text);
      run = [];
    };
    for (const node of nodes) {
      if (typeof node !== 'string' && BLOCK.test(node.tag)) {
        flush();
        block(node, out);
      } else run.push(node);
    }
    flush();
  };
  const list = (el: El, out: string[]) => {
    const ordered = el.tag === 'ol';
    let n = Number(el.attrs.start ?? 1) || 1;
    const items: string[] = [];
    for (const child of el.children) {
      if (typeof child === 'string') {
        if (child.trim()) items.push(`- ${escape(child.trim())}`);
        continue;
      }
      const inner: string[] = [];
      blocks(child.tag === 'li' ? child.children : [child], inner);
      if (inner.length === 0) continue;
      const marker = ordered ? `${n++}. ` : '- ';
      const pad = ' '.repeat(marker.length);
      const text = inner.join('\n\n').replace(/\n/g, `\n${pad}`).replace(/\n\s+\n/g, '\n\n');
      items.push(`${marker}${text}`);
    }
    if (items.length) out.push(items.join('\n'));
  };
  const table = (el: El, out: string[]) => {
    const rows: string[][] = [];
    let headed = false;
    const walk = (node: El) => {
      for (const child of node.children) {
        if (typeof child === 'string') continue;
        if (child.tag === 'tr') {
          const cells = child.children.filter((c): c is El => typeof c !== 'string' && (c.tag === 'td' || c.tag === 'th'));
          if (rows.length === 0 && cells.length && cells.every((c) => c.tag === 'th')) headed = true;
          rows.push(cells.map((c) => inline(c.children).trim().replace(/\|/g, '\\|').replace(/\n+/g, ' ')));
        } else if (child.tag !== 'table') walk(child);
      }
    };
    walk(el);
    if (rows.length === 0) return;
    const width = Math.max(...rows.map((r) => r.length));
    if (width === 0) return;
    const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
    const header = headed ? rows.shift()! : new Array(width).fill('');
    out.push([line(header), line(new Array(width).fill('---')), ...rows.map(line)].join('\n'));
  };
  const block = (el: El, out: string[]): void => {
    const tag = el.tag;
    if (/^h[1-6]$/.test(tag)) {
      const text = inline(el.children).trim();
      if (text) out.push(`${'#'.repeat(Number(tag[1]))} ${text}`);
    } else if (tag === 'ul' || tag === 'ol') list(el, out);
    else if (tag === 'table') table(el, out);
    else if (tag === 'hr') out.push('---');
    else if (tag === 'pre') {
      const code = el.children.find((c): c is El => typeof c !== 'string' && c.tag === 'code');
      const language = /(?:lang|language)-([\w+#-]+)/.exec(`${code?.attrs.class ?? ''} ${el.attrs.class ?? ''}`)?.[1] ?? '';
      const text = textOf(el).replace(/^\n/, '').replace(/\n+$/, '');
      const fence = text.includes('```') ? '~~~~' : '```';
      out.push(`${fence}${language}\n${text}\n${fence}`);
    } else if (tag === 'blockquote') {
      const inner: string[] = [];
      blocks(el.children, inner);
      if (inner.length) out.push(inner.join('\n\n').replace(/^/gm, '> ').replace(/^> $/gm, '>'));
    } else blocks(el.children, out);
  };

  const out: string[] = [];
  blocks([content], out);
  const markdown = out
    .join('\n\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, markdown };
};
