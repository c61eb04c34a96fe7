// A light DOM for article extraction: elements and text nodes in doubly linked sibling
// lists (so removing, moving or re-tagging a node costs O(1) however many siblings it
// has), built by htmlparser2's streaming parser. What a reader never wants is not built at
// all (scripts, styles, forms' controls, hidden subtrees); what the metadata needs from the
// head (<title>, <meta>, JSON-LD, <html lang>) is collected on the way.
import { Parser } from 'htmlparser2';

export interface HNode {
  /** Lower-case tag name, or '#text'. */
  tag: string;
  attrs: Record<string, string>;
  /** Text of a '#text' node. */
  data: string;
  parent: HNode | null;
  first: HNode | null;
  last: HNode | null;
  prev: HNode | null;
  next: HNode | null;
  /** Scratch fields of the extractor. */
  score?: number;
  /** Normalized text length, link text length and commas of the subtree (measured). */
  len?: number;
  linkLen?: number;
  commas?: number;
}

export interface ParsedPage {
  root: HNode;
  body: HNode;
  title: string;
  lang: string;
  /** Attributes of every <meta> element. */
  metas: Record<string, string>[];
  /** The text of every <script type="application/ld+json">. */
  jsonLd: string[];
  /** The <h1> and <h2> elements, in document order. */
  headings: HNode[];
  /** The tree's shape as parsed, recorded on the way (none when the parser had to add a <body>). */
  shape?: TreeSnapshot;
}

/** Never built: no reader wants their content. (`math` is kept: it renders from its annotation.) */
const DROP = new Set([
  'script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas',
  'button', 'select', 'textarea', 'dialog', 'nav', 'head', 'link', 'meta', 'title', 'base', 'audio', 'video', 'source', 'track', 'map', 'datalist', 'option',
]);
const NO_ATTRS: Record<string, string> = Object.freeze({}) as Record<string, string>;
export const VOID = new Set(['br', 'hr', 'img', 'wbr', 'area', 'base', 'col', 'source', 'track', 'input', 'link', 'meta', 'param', 'embed', 'keygen']);
/** Nesting deeper than this joins the deepest kept element, so no walk below recurses further. */
export const MAX_DEPTH = 300;

// Every node is made with all its fields, the extractor's scratch ones included, so that
// all nodes share one shape and setting a scratch field later allocates nothing: on a large
// page those late-added fields cost an allocation per node, and the garbage collector's
// extra work made conversion time grow faster than the page.
export function element(tag: string, attrs: Record<string, string> = NO_ATTRS): HNode {
  return { tag, attrs, data: '', parent: null, first: null, last: null, prev: null, next: null, score: undefined, len: undefined, linkLen: undefined, commas: undefined };
}

export function textNode(data: string): HNode {
  return { tag: '#text', attrs: NO_ATTRS, data, parent: null, first: null, last: null, prev: null, next: null, score: undefined, len: undefined, linkLen: undefined, commas: undefined };
}

export function append(parent: HNode, node: HNode): void {
  if (node.parent) detach(node);
  node.parent = parent;
  node.prev = parent.last;
  if (parent.last) parent.last.next = node;
  else parent.first = node;
  parent.last = node;
}

export function insertBefore(parent: HNode, node: HNode, ref: HNode | null): void {
  if (!ref) return append(parent, node);
  if (node.parent) detach(node);
  node.parent = parent;
  node.next = ref;
  node.prev = ref.prev;
  if (ref.prev) ref.prev.next = node;
  else parent.first = node;
  ref.prev = node;
}

export function detach(node: HNode): void {
  const parent = node.parent;
  if (!parent) return;
  if (node.prev) node.prev.next = node.next;
  else parent.first = node.next;
  if (node.next) node.next.prev = node.prev;
  else parent.last = node.prev;
  node.parent = node.prev = node.next = null;
}

export function replace(old: HNode, node: HNode): void {
  const parent = old.parent;
  if (!parent) return;
  insertBefore(parent, node, old);
  detach(old);
}

export const isText = (node: HNode) => node.tag === '#text';

export function* childElements(node: HNode): Generator<HNode> {
  for (let child = node.first; child; child = child.next) if (!isText(child)) yield child;
}

export function firstElement(node: HNode): HNode | null {
  let child = node.first;
  while (child && isText(child)) child = child.next;
  return child;
}

export function nextElement(node: HNode): HNode | null {
  let next = node.next;
  while (next && isText(next)) next = next.next;
  return next;
}

export function elementCount(node: HNode, limit = Infinity): number {
  let n = 0;
  for (let child = node.first; child && n < limit; child = child.next) if (!isText(child)) n++;
  return n;
}

/** Every descendant element, in document order (iterative). */
export function* descendants(node: HNode): Generator<HNode> {
  let at = node.first;
  while (at && at !== node) {
    if (!isText(at)) yield at;
    if (at.first) at = at.first;
    else {
      while (at && at !== node && !at.next) at = at.parent;
      if (!at || at === node) return;
      at = at.next;
    }
  }
}

export function textContent(node: HNode): string {
  if (isText(node)) return node.data;
  const parts: string[] = [];
  let at = node.first;
  while (at && at !== node) {
    if (isText(at)) parts.push(at.data);
    if (at.first) at = at.first;
    else {
      while (at && at !== node && !at.next) at = at.parent;
      if (!at || at === node) break;
      at = at.next;
    }
  }
  return parts.join('');
}

/** Readability's _getNextNode: depth-first, the node's children first unless `skipChildren`. */
export function nextNode(node: HNode, skipChildren = false): HNode | null {
  if (!skipChildren) {
    const child = firstElement(node);
    if (child) return child;
  }
  for (let at: HNode | null = node; at; at = at.parent) {
    const sibling = nextElement(at);
    if (sibling) return sibling;
  }
  return null;
}

/** A deep copy of the subtree at `node` (attributes shared: the extractor never changes them). */
export function cloneTree(node: HNode): HNode {
  const copy = (from: HNode): HNode => {
    const out = isText(from) ? textNode(from.data) : element(from.tag, from.attrs);
    out.len = from.len;
    out.linkLen = from.linkLen;
    out.commas = from.commas;
    out.score = from.score;
    for (let child = from.first; child; child = child.next) append(out, copy(child));
    return out;
  };
  return copy(node);
}

/** The shape of a tree as parsed: its nodes in document order, each one's parent and tag. */
export interface TreeSnapshot {
  nodes: HNode[];
  /** Index in `nodes` of each node's parent (-1 for the root); a parent comes before its children. */
  parents: ArrayLike<number>;
  tags: string[];
}

/**
 * Records the shape of the tree at `root`, so that `restore` can undo what an extraction
 * attempt did to it (moves, removals, re-tagged elements, scratch fields) without a copy
 * of every node: a copy doubled the nodes alive during a conversion, and the garbage
 * collector's work on them grew faster than the page.
 */
export function snapshot(root: HNode): TreeSnapshot {
  const nodes: HNode[] = [];
  const parentIndex: number[] = [];
  const tags: string[] = [];
  const visit = (node: HNode, parent: number) => {
    const index = nodes.length;
    nodes.push(node);
    parentIndex.push(parent);
    tags.push(node.tag);
    for (let child = node.first; child; child = child.next) visit(child, index);
  };
  visit(root, -1);
  return { nodes, parents: Int32Array.from(parentIndex), tags };
}

/** Puts every node recorded by `snapshot` back where it was, as it was (nodes made since are dropped). */
export function restore(shape: TreeSnapshot): void {
  const { nodes, parents, tags } = shape;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    node.parent = node.first = node.last = node.prev = node.next = null;
    node.tag = tags[i];
    node.score = undefined;
    // A text node's length and commas depend on its text alone, which never changes.
    if (!isText(node)) node.len = node.linkLen = node.commas = undefined;
  }
  for (let i = 1; i < nodes.length; i++) append(nodes[parents[i]], nodes[i]);
}

function hasAny(attrs: Record<string, string>): boolean {
  for (const _ in attrs) return true;
  return false;
}

function hidden(attrs: Record<string, string>): boolean {
  if (attrs.hidden !== undefined) return true;
  if (attrs['aria-hidden'] === 'true' && !(attrs.class ?? '').includes('fallback-image')) return true;
  if (attrs['aria-modal'] === 'true' && attrs.role === 'dialog') return true;
  const style = attrs.style;
  return !!style && /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b/i.test(style);
}

/**
 * htmlparser2 keeps its stack of open tags top first, with Array#unshift and #shift, which
 * costs time in proportion to the depth on every tag: 100k nested elements took ~10 s.
 * This stack keeps the same interface (top at index 0) over a push/pop array.
 */
class TopFirstStack {
  private items: string[] = [];
  /** Open elements by name, so a close tag with no open element is refused without a scan. */
  private open = new Map<string, number>();
  get 0(): string | undefined {
    return this.items[this.items.length - 1];
  }
  get length(): number {
    return this.items.length;
  }
  set length(n: number) {
    if (n !== 0) return;
    this.items.length = 0;
    this.open.clear();
  }
  unshift(name: string): number {
    this.open.set(name, (this.open.get(name) ?? 0) + 1);
    return this.items.push(name);
  }
  shift(): string | undefined {
    const name = this.items.pop();
    if (name !== undefined) this.open.set(name, this.open.get(name)! - 1);
    return name;
  }
  /** Distance from the top; the caller then closes everything above it, so scans add up to the tags opened. */
  indexOf(name: string): number {
    if (!this.open.get(name)) return -1;
    for (let i = this.items.length - 1; i >= 0; i--) if (this.items[i] === name) return this.items.length - 1 - i;
    return -1;
  }
}

export function parseHtml(html: string): ParsedPage {
  const root = element('#root');
  let body: HNode | null = null;
  let current = root;
  let title = '';
  let lang = '';
  let titleOpen = false;
  let jsonOpen = false;
  let json = '';
  const metas: Record<string, string>[] = [];
  const jsonLd: string[] = [];
  const headings: HNode[] = [];
  // The tree's shape, recorded as it is built (see snapshot): no walk over the tree later.
  const nodes: HNode[] = [root];
  const parents: number[] = [-1];
  const tags: string[] = [root.tag];
  const openIndex: number[] = [0];
  const record = (node: HNode) => {
    nodes.push(node);
    parents.push(openIndex[openIndex.length - 1]);
    tags.push(node.tag);
  };
  // One entry per open tag: 'k' kept, 's' skipped (dropped subtree), 'f' flattened (too deep).
  const open: ('k' | 's' | 'f')[] = [];
  let skipping = 0;
  let depth = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'title' && !title) titleOpen = true;
        else if (name === 'meta') metas.push(attrs);
        else if (name === 'html' && attrs.lang) lang ||= attrs.lang;
        else if (name === 'script' && attrs.type === 'application/ld+json') jsonOpen = true;
        if (skipping > 0 || DROP.has(name) || hidden(attrs)) {
          if (!VOID.has(name)) {
            skipping++;
            open.push('s');
          }
          return;
        }
        if (depth >= MAX_DEPTH) {
          if (!VOID.has(name)) open.push('f');
          return;
        }
        // Most elements have no attributes: they share one empty object, one object fewer per node.
        const node = element(name, hasAny(attrs) ? attrs : NO_ATTRS);
        append(current, node);
        record(node);
        if (name === 'body' && !body) body = node;
        else if (name === 'h1' || name === 'h2') headings.push(node);
        if (!VOID.has(name)) {
          current = node;
          depth++;
          open.push('k');
          openIndex.push(nodes.length - 1);
        }
      },
      ontext(text) {
        if (titleOpen) title += text;
        if (jsonOpen) json += text;
        if (skipping > 0) return;
        const last = current.last;
        if (last && isText(last)) last.data += text;
        else {
          const node = textNode(text);
          append(current, node);
          record(node);
        }
      },
      onclosetag(name) {
        if (name === 'title') titleOpen = false;
        if (jsonOpen && name === 'script') {
          jsonOpen = false;
          jsonLd.push(json);
          json = '';
        }
        if (VOID.has(name)) return;
        const state = open.pop();
        if (state === 's') skipping--;
        else if (state === 'k' && current.parent) {
          current = current.parent;
          depth--;
          openIndex.pop();
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  (parser as unknown as { stack: unknown }).stack = new TopFirstStack();
  parser.write(html);
  parser.end();
  let shape: TreeSnapshot | undefined = { nodes, parents, tags };
  if (!body) {
    shape = undefined;
    body = element('body');
    for (let child = root.first; child; ) {
      const next = child.next;
      if (child.tag !== 'html') append(body, child);
      else for (let inner = child.first; inner; ) {
        const after = inner.next;
        append(body, inner);
        inner = after;
      }
      child = next;
    }
    append(root, body);
  }
  return { root, body, title: title.replace(/[ \t\n\f\r]+/g, ' ').trim(), lang, metas, jsonLd, headings, shape };
}
