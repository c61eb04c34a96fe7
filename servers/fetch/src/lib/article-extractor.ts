// Picks the article out of a page: a port of Mozilla Readability's algorithm (Apache-2.0,
// github.com/mozilla/readability) onto the light tree of html-tree.ts.
//
// 1. One walk over the page drops unlikely candidates (class or id like "sidebar",
//    "comment"; menus and dialogs by role), takes the byline, turns divs that hold only
//    text into paragraphs, and collects the elements to score.
// 2. Each paragraph of 25+ characters scores its five nearest ancestors (1 + commas +
//    length/100, divided by the level); an ancestor starts from its tag and its class
//    weight ("article", "content" good; "comment", "share" bad) and ends multiplied by
//    (1 - link density). The best candidate yields to a common ancestor of several close
//    ones, or to a parent scoring higher.
// 3. Siblings of the pick that score well, or are prose paragraphs, join it: an article
//    split over several containers comes out whole.
// 4. The result is cleaned: forms, link lists, teaser blocks, share widgets and headers of
//    bad class go when they look like boilerplate (Readability's _cleanConditionally).
// 5. If under 500 characters remain, the page is taken again without the unlikely filter,
//    then without class weights, then without conditional cleaning; the longest wins.
//
// Unlike Readability every pass here is linear in the size of the page: subtree text
// lengths, link lengths and commas are measured once per pass bottom-up, never by
// re-reading a subtree per element, and siblings are linked lists.
import { textSimilarity, type ArticleMetadata } from './article-metadata.js';
import {
  append, cloneTree, detach, element, elementCount, firstElement, insertBefore, isText, nextElement, nextNode, replace, restore, snapshot, textContent,
  type HNode, type ParsedPage,
} from './html-tree.js';

const STRIP_UNLIKELYS = 1;
const WEIGHT_CLASSES = 2;
const CLEAN_CONDITIONALLY = 4;
const CHAR_THRESHOLD = 500;
const TOP_CANDIDATES = 5;

const UNLIKELY =
  /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i;
const MAYBE = /and|article|body|column|content|main|mathjax|shadow/i;
const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i;
const NEGATIVE = /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;
const BYLINE = /byline|author|dateline|writtenby|p-author/i;
const SHARE = /(\b|_)(share|sharedaddy)(\b|_)/i;
// "Advertising" and "loading" in several languages (French, German, Chinese, Russian,
// Spanish), written as \u escapes: the bundle must stay ASCII (scripts/bundle.mjs says why).
const AD_WORDS = /^(ad(vertising|vertisement)?|pub(licit\u00e9)?|werb(ung)?|\u5e7f\u544a|\u0420\u0435\u043a\u043b\u0430\u043c\u0430|Anuncio)$/iu;
const LOADING_WORDS = /^((loading|\u6b63\u5728\u52a0\u8f7d|\u0417\u0430\u0433\u0440\u0443\u0437\u043a\u0430|chargement|cargando)(\u2026|\.\.\.)?)$/iu;
const UNLIKELY_ROLES = new Set(['menu', 'menubar', 'complementary', 'navigation', 'alert', 'alertdialog', 'dialog']);
const TAGS_TO_SCORE = new Set(['section', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'td', 'pre']);
const DIV_TO_P = new Set(['blockquote', 'dl', 'div', 'img', 'ol', 'p', 'pre', 'table', 'ul']);
const TEXTISH = new Set(['span', 'li', 'td', ...DIV_TO_P]);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const PHRASING = new Set([
  'abbr', 'audio', 'b', 'bdo', 'br', 'button', 'cite', 'code', 'data', 'datalist', 'dfn', 'em', 'embed', 'i', 'img', 'input', 'kbd', 'label',
  'mark', 'math', 'meter', 'noscript', 'object', 'output', 'progress', 'q', 'ruby', 'samp', 'script', 'select', 'small', 'span', 'strong', 'sub',
  'sup', 'textarea', 'time', 'var', 'wbr',
]);
/** Siblings joining the article keep these tags; others (td, li, span...) become divs. */
const KEEP_TAG = new Set(['div', 'article', 'section', 'p', 'ol', 'ul', 'pre', 'table', 'blockquote', 'figure', 'dl', 'main', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

export interface ExtractedArticle {
  content: HNode;
  /** The byline found in the page, when the metadata had none. */
  byline?: string;
  /** Normalized text length of the content. */
  length: number;
}

/** Length (whitespace runs counted once) and commas of a text node, computed once: text never changes. */
function measureText(node: HNode): void {
  if (node.len !== undefined) return;
  const text = node.data;
  let len = 0;
  let commas = 0;
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12) {
      if (!space) len++;
      space = true;
      continue;
    }
    space = false;
    len++;
    if (c === 0x2c || c === 0x60c || c === 0xfe50 || c === 0xfe10 || c === 0xfe11 || c === 0x2e41 || c === 0x2e34 || c === 0x2e32 || c === 0xff0c) commas++;
  }
  node.len = len;
  node.commas = commas;
}
const isHashLink = (href: string | undefined) => !!href && /^#.+/.test(href);

/**
 * Text length, link text length (hash links count 0.3) and commas of every element below
 * `node`; with `withBlocks`, also collects the elements with a descendant that is a block
 * for Readability's div-to-p rule (in the same walk: each walk over a large page's tree
 * costs more per node than the last, as the tree outgrows the processor's caches).
 * Returns whether `node` has such a descendant.
 */
function measure(node: HNode, withBlocks?: Set<HNode>): boolean {
  let len = 0;
  let link = 0;
  let commas = 0;
  let blocks = false;
  for (let child = node.first; child; child = child.next) {
    if (isText(child)) {
      measureText(child);
      len += child.len!;
      commas += child.commas!;
      continue;
    }
    if (measure(child, withBlocks) || DIV_TO_P.has(child.tag)) blocks = true;
    len += child.len!;
    commas += child.commas!;
    link += child.tag === 'a' ? child.len! * (isHashLink(child.attrs.href) ? 0.3 : 1) : child.linkLen!;
  }
  node.len = len;
  node.linkLen = Math.min(link, len);
  node.commas = commas;
  if (blocks && withBlocks) withBlocks.add(node);
  return blocks;
}

const linkDensity = (node: HNode) => (node.len ? node.linkLen! / node.len : 0);

function classWeight(node: HNode, flags: number): number {
  if (!(flags & WEIGHT_CLASSES)) return 0;
  let weight = 0;
  for (const value of [node.attrs.class, node.attrs.id]) {
    if (!value) continue;
    if (NEGATIVE.test(value)) weight -= 25;
    if (POSITIVE.test(value)) weight += 25;
  }
  return weight;
}

function initialScore(node: HNode, flags: number): number {
  let score = 0;
  switch (node.tag) {
    case 'div':
      score = 5;
      break;
    case 'pre':
    case 'td':
    case 'blockquote':
      score = 3;
      break;
    case 'address':
    case 'ol':
    case 'ul':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'li':
    case 'form':
      score = -3;
      break;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
    case 'th':
      score = -5;
      break;
  }
  return score + classWeight(node, flags);
}

function hasAncestorTag(node: HNode, tag: string, maxDepth = 3): boolean {
  let depth = 0;
  for (let at = node.parent; at; at = at.parent) {
    if (maxDepth > 0 && depth++ >= maxDepth) return false;
    if (at.tag === tag) return true;
  }
  return false;
}

function isPhrasing(node: HNode): boolean {
  if (isText(node) || PHRASING.has(node.tag)) return true;
  if (node.tag !== 'a' && node.tag !== 'del' && node.tag !== 'ins') return false;
  for (let child = node.first; child; child = child.next) if (!isPhrasing(child)) return false;
  return true;
}

const isWhitespace = (node: HNode) => (isText(node) ? !node.data.trim() : node.tag === 'br');

function hasSingleTagInside(node: HNode, tag: string): boolean {
  let found = 0;
  for (let child = node.first; child; child = child.next) {
    if (isText(child)) {
      if (child.data.trim()) return false;
    } else if (child.tag !== tag || ++found > 1) return false;
  }
  return found === 1;
}

/** Skips whitespace-only text nodes (Readability's _nextNode). */
function skipBlank(node: HNode | null): HNode | null {
  while (node && isText(node) && !node.data.trim()) node = node.next;
  return node;
}

/** Readability's _replaceBrs: two or more <br> in a row end a paragraph; what follows becomes a <p>. */
function replaceBrs(root: HNode): void {
  // Not inside <pre>, where every <br> is a line of the code.
  for (const br of collect(root, (node) => node.tag === 'br', (node) => node.tag === 'pre')) {
    if (!br.parent) continue;
    let next = skipBlank(br.next);
    let replaced = false;
    while (next && next.tag === 'br') {
      replaced = true;
      const after = next.next;
      detach(next);
      next = skipBlank(after);
    }
    if (!replaced) continue;
    const p = element('p');
    const parent = br.parent;
    replace(br, p);
    for (let at = p.next; at; ) {
      if (at.tag === 'br') {
        const following = skipBlank(at.next);
        if (following && following.tag === 'br') break;
      }
      if (!isPhrasing(at)) break;
      const after = at.next;
      append(p, at);
      at = after;
    }
    while (p.last && isWhitespace(p.last)) detach(p.last);
    if (parent.tag === 'p') parent.tag = 'div';
  }
}

interface WalkState {
  title: string;
  byline?: string;
  metadataByline: boolean;
}

/** One attempt of Readability's _grabArticle on a fresh tree. */
function grab(page: ParsedPage, flags: number, state: WalkState): HNode {
  const body = page.body;
  replaceBrs(body);
  const withBlocks = new Set<HNode>();
  measure(page.root, withBlocks);
  const toScore: HNode[] = [];
  let removeTitleHeader = true;
  const removeAndNext = (node: HNode) => {
    const next = nextNode(node, true);
    detach(node);
    return next;
  };

  let node: HNode | null = firstElement(page.root);
  while (node) {
    const tag = node.tag;
    const match = `${node.attrs.class ?? ''} ${node.attrs.id ?? ''}`;
    if (
      !state.byline &&
      !state.metadataByline &&
      node.len! > 0 &&
      (node.attrs.rel === 'author' || node.attrs.itemprop?.includes('author') || BYLINE.test(match)) &&
      node.len! < 200
    ) {
      const text = textContent(node).trim();
      if (text && text.length < 100) {
        let name: HNode | null = null;
        const end = nextNode(node, true);
        for (let next = nextNode(node); next && next !== end; next = nextNode(next)) {
          if (next.attrs.itemprop?.includes('name')) {
            name = next;
            break;
          }
        }
        state.byline = name ? textContent(name).trim() : text;
        node = removeAndNext(node);
        continue;
      }
    }
    if (removeTitleHeader && (tag === 'h1' || tag === 'h2') && textSimilarity(state.title, textContent(node).trim()) > 0.75) {
      removeTitleHeader = false;
      node = removeAndNext(node);
      continue;
    }
    if (flags & STRIP_UNLIKELYS) {
      if (
        UNLIKELY.test(match) &&
        !MAYBE.test(match) &&
        !hasAncestorTag(node, 'table') &&
        !hasAncestorTag(node, 'code') &&
        tag !== 'body' &&
        tag !== 'a'
      ) {
        node = removeAndNext(node);
        continue;
      }
      if (node.attrs.role && UNLIKELY_ROLES.has(node.attrs.role)) {
        node = removeAndNext(node);
        continue;
      }
    }
    if ((tag === 'div' || tag === 'section' || tag === 'header' || HEADINGS.has(tag)) && node.len === 0) {
      let onlyBreaks = true;
      for (let child = firstElement(node); child && onlyBreaks; child = nextElement(child)) onlyBreaks = child.tag === 'br' || child.tag === 'hr';
      if (onlyBreaks) {
        node = removeAndNext(node);
        continue;
      }
    }
    if (TAGS_TO_SCORE.has(tag)) toScore.push(node);
    if (tag === 'div') {
      // Runs of text and inline elements become paragraphs.
      let wrapped = false;
      for (let child = node.first; child; ) {
        if (!isPhrasing(child)) {
          child = child.next;
          continue;
        }
        const run: HNode[] = [];
        while (child && isPhrasing(child)) {
          run.push(child);
          child = child.next;
        }
        let start = 0;
        let end = run.length;
        while (start < end && isWhitespace(run[start])) detach(run[start++]);
        while (end > start && isWhitespace(run[end - 1])) detach(run[--end]);
        if (end > start) {
          const p = element('p');
          insertBefore(node, p, child);
          for (let i = start; i < end; i++) append(p, run[i]);
          wrapped = true;
        }
      }
      if (hasSingleTagInside(node, 'p') && linkDensity(node) < 0.25) {
        const p = firstElement(node)!;
        replace(node, p);
        node = p;
        toScore.push(node);
      } else if (!wrapped && !withBlocks.has(node)) {
        node.tag = 'p';
        toScore.push(node);
      }
    }
    node = nextNode(node);
  }

  // Scores.
  measure(body);
  const candidates: HNode[] = [];
  for (const scored of toScore) {
    if (!scored.parent || scored.parent.tag === '#root') continue;
    const length = scored.len!;
    if (length < 25) continue;
    const points = 1 + (scored.commas! + 1) + Math.min(Math.floor(length / 100), 3);
    let level = 0;
    for (let ancestor: HNode | null = scored.parent; ancestor && level < 5; ancestor = ancestor.parent, level++) {
      if (!ancestor.parent || ancestor.parent.tag === '#root') continue;
      if (ancestor.score === undefined) {
        ancestor.score = initialScore(ancestor, flags);
        candidates.push(ancestor);
      }
      ancestor.score += points / (level === 0 ? 1 : level === 1 ? 2 : level * 3);
    }
  }
  const top: HNode[] = [];
  for (const candidate of candidates) {
    candidate.score = candidate.score! * (1 - linkDensity(candidate));
    for (let t = 0; t < TOP_CANDIDATES; t++) {
      if (!top[t] || candidate.score > top[t].score!) {
        top.splice(t, 0, candidate);
        if (top.length > TOP_CANDIDATES) top.pop();
        break;
      }
    }
  }

  let best: HNode | undefined = top[0];
  if (!best || best.tag === 'body') {
    best = element('div');
    for (let child = body.first; child; ) {
      const next = child.next;
      append(best, child);
      child = next;
    }
    append(body, best);
    measure(best);
    best.score = initialScore(best, flags);
  } else {
    const isTop = (at: HNode | null): at is HNode => !!at && at.tag !== 'body' && at.tag !== '#root';
    // Several close candidates under one ancestor: that ancestor is the article.
    const alternatives: Set<HNode>[] = [];
    for (let i = 1; i < top.length; i++) {
      if (top[i].score! / best.score! >= 0.75) {
        const chain = new Set<HNode>();
        for (let at = top[i].parent; at; at = at.parent) chain.add(at);
        alternatives.push(chain);
      }
    }
    if (alternatives.length >= 3) {
      for (let at = best.parent; isTop(at); at = at.parent) {
        let lists = 0;
        for (const chain of alternatives) if (chain.has(at) && ++lists >= 3) break;
        if (lists >= 3) {
          best = at;
          break;
        }
      }
    }
    if (best.score === undefined) best.score = initialScore(best, flags);
    // A parent scoring higher holds more of the article.
    let lastScore = best.score;
    const threshold = lastScore / 3;
    for (let at = best.parent; isTop(at); at = at.parent) {
      if (at.score === undefined) continue;
      if (at.score < threshold) break;
      if (at.score > lastScore) {
        best = at;
        break;
      }
      lastScore = at.score;
    }
    while (isTop(best.parent) && elementCount(best.parent, 2) === 1) best = best.parent;
    if (best.score === undefined) best.score = initialScore(best, flags);
  }

  // Siblings that belong to the article join it.
  const article = element('div');
  const parent = best.parent!;
  const siblingThreshold = Math.max(10, best.score! * 0.2);
  const bestClass = best.attrs.class ?? '';
  for (let sibling = firstElement(parent); sibling; ) {
    const next = nextElement(sibling);
    let join = sibling === best;
    if (!join) {
      const bonus = bestClass && (sibling.attrs.class ?? '') === bestClass ? best.score! * 0.2 : 0;
      if (sibling.score !== undefined && sibling.score + bonus >= siblingThreshold) join = true;
      else if (sibling.tag === 'p') {
        const density = linkDensity(sibling);
        const length = sibling.len!;
        if (length > 80 && density < 0.25) join = true;
        else if (length < 80 && length > 0 && density === 0 && /\.( |$)/.test(textContent(sibling))) join = true;
      }
    }
    if (join) {
      if (!KEEP_TAG.has(sibling.tag)) sibling.tag = 'div';
      append(article, sibling);
    }
    sibling = next;
  }
  prepArticle(article, flags);
  return article;
}

interface Counts {
  p: number;
  img: number;
  li: number;
  input: number;
  headingLen: number;
  listLen: number;
  textish: boolean;
  dataTable: boolean;
}
/** The counts of an element with no element below it: shared, never written. */
const NO_COUNTS: Readonly<Counts> = Object.freeze({ p: 0, img: 0, li: 0, input: 0, headingLen: 0, listLen: 0, textish: false, dataTable: false });

/** Readability's _markDataTables for one table. */
function isDataTable(table: HNode): boolean {
  const role = table.attrs.role;
  if (role === 'presentation' || table.attrs.datatable === '0') return false;
  if (table.attrs.summary) return true;
  let rows = 0;
  let columns = 0;
  let dataish = false;
  let nested = false;
  const visit = (node: HNode) => {
    for (let child = firstElement(node); child; child = nextElement(child)) {
      const tag = child.tag;
      if (tag === 'table') {
        nested = true;
        continue;
      }
      if ((tag === 'caption' && child.first) || tag === 'col' || tag === 'colgroup' || tag === 'tfoot' || tag === 'thead' || tag === 'th') dataish = true;
      if (tag === 'tr') {
        rows += Number.parseInt(child.attrs.rowspan ?? '', 10) || 1;
        let cells = 0;
        for (let cell = firstElement(child); cell; cell = nextElement(cell)) {
          if (cell.tag === 'td') cells += Number.parseInt(cell.attrs.colspan ?? '', 10) || 1;
          if (cell.tag === 'th') dataish = true;
        }
        columns = Math.max(columns, cells);
      } else visit(child);
    }
  };
  visit(table);
  if (dataish) return true;
  if (nested) return false;
  if (columns === 1 || rows === 1) return false;
  if (rows >= 10 || columns > 4) return true;
  return rows * columns > 10;
}

/**
 * Readability's _cleanConditionally for every element of `tags` at once, children before
 * parents as Readability removes them, with the counts it needs gathered on the way up.
 */
function cleanConditionally(root: HNode, tags: Set<string>, flags: number, countInputs: boolean, dataTables: Set<HNode>): void {
  const cleaning = (flags & CLEAN_CONDITIONALLY) !== 0;
  const visit = (node: HNode, inDataTable: boolean, inCode: boolean, inFigure: boolean): Readonly<Counts> => {
    // Made at the first element child: most elements (a paragraph of text) have none.
    let counts: Counts | undefined;
    let len = 0;
    let link = 0;
    let commas = 0;
    const data = dataTables.has(node);
    for (let child = node.first; child; ) {
      const next = child.next;
      if (isText(child)) {
        measureText(child);
        len += child.len!;
        commas += child.commas!;
        child = next;
        continue;
      }
      const inner = visit(child, inDataTable || data, inCode || node.tag === 'code', inFigure || node.tag === 'figure');
      if (cleaning && tags.has(child.tag) && shouldRemove(child, inner, inDataTable || data, inCode || node.tag === 'code', inFigure || node.tag === 'figure')) {
        detach(child);
        child = next;
        continue;
      }
      const tag = child.tag;
      counts ??= { p: 0, img: 0, li: 0, input: 0, headingLen: 0, listLen: 0, textish: false, dataTable: false };
      len += child.len!;
      commas += child.commas!;
      link += tag === 'a' ? child.len! * (isHashLink(child.attrs.href) ? 0.3 : 1) : child.linkLen!;
      counts.p += inner.p + (tag === 'p' ? 1 : 0);
      counts.img += inner.img + (tag === 'img' ? 1 : 0);
      counts.li += inner.li + (tag === 'li' ? 1 : 0);
      counts.input += inner.input + (tag === 'input' ? 1 : 0);
      counts.headingLen += HEADINGS.has(tag) ? child.len! : inner.headingLen;
      counts.listLen += tag === 'ul' || tag === 'ol' ? child.len! : inner.listLen;
      counts.textish ||= inner.textish || (TEXTISH.has(tag) && child.len! > 0);
      counts.dataTable ||= inner.dataTable || dataTables.has(child);
      child = next;
    }
    node.len = len;
    node.linkLen = Math.min(link, len);
    node.commas = commas;
    return counts ?? NO_COUNTS;
  };
  const shouldRemove = (node: HNode, counts: Readonly<Counts>, inDataTable: boolean, inCode: boolean, inFigure: boolean): boolean => {
    const tag = node.tag;
    const length = node.len!;
    const isList = tag === 'ul' || tag === 'ol' || (length > 0 && counts.listLen / length > 0.9);
    if (dataTables.has(node)) return false;
    if (inDataTable || inCode || counts.dataTable) return false;
    const weight = classWeight(node, flags);
    if (weight < 0) return true;
    if (node.commas! >= 10) return false;
    const { p, img } = counts;
    const li = counts.li - 100;
    const input = countInputs ? counts.input : 0;
    const headingDensity = length ? counts.headingLen / length : 0;
    if (length < 40) {
      const text = textContent(node).trim().replace(/\s{2,}/g, ' ');
      if (AD_WORDS.test(text) || LOADING_WORDS.test(text)) return true;
    }
    const density = linkDensity(node);
    let remove =
      (!inFigure && img > 1 && p / img < 0.5) ||
      (!isList && li > p) ||
      input > Math.floor(p / 3) ||
      (!isList && !inFigure && headingDensity < 0.9 && length < 25 && (img === 0 || img > 2) && density > 0) ||
      (!isList && weight < 25 && density > 0.2) ||
      (weight >= 25 && density > 0.5) ||
      (img === 0 && !counts.textish);
    if (isList && remove) {
      for (let child = firstElement(node); child; child = nextElement(child)) if (elementCount(child, 2) > 1) return remove;
      if (img === counts.li) remove = false;
    }
    return remove;
  };
  visit(root, false, false, false);
}

/** Removes every element below `root` for which `test` holds (children of removed ones are not visited). */
function removeWhere(root: HNode, test: (node: HNode) => boolean): void {
  const after = (node: HNode): HNode | null => {
    let at: HNode | null = node;
    while (at && at !== root && !at.next) at = at.parent;
    return !at || at === root ? null : at.next;
  };
  let at = root.first;
  while (at) {
    if (!isText(at) && test(at)) {
      const next = after(at);
      detach(at);
      at = next;
    } else at = at.first ?? after(at);
  }
}

/** Readability's _prepArticle, as far as markdown needs it. */
function prepArticle(article: HNode, flags: number): void {
  const dataTables = new Set(collect(article, (n) => n.tag === 'table' && isDataTable(n)));
  cleanConditionally(article, new Set(['form', 'fieldset']), flags, true, dataTables);
  // Readability removes these one kind after another; as no test depends on what an earlier
  // removal took, one walk removes them all (a walk over a large tree is what costs).
  removeWhere(
    article,
    (node) =>
      node.tag === 'footer' ||
      node.tag === 'aside' ||
      node.tag === 'input' ||
      // Share widgets below the article's top-level elements.
      (node.parent !== article && node.len! < CHAR_THRESHOLD && SHARE.test(`${node.attrs.class ?? ''} ${node.attrs.id ?? ''}`)) ||
      ((node.tag === 'h1' || node.tag === 'h2') && classWeight(node, flags) < 0),
  );
  cleanConditionally(article, new Set(['table', 'ul', 'div']), flags, false, dataTables);
  const tables: HNode[] = [];
  removeWhere(article, (node) => {
    if (node.tag === 'table') tables.push(node);
    return node.tag === 'p' && node.len === 0 && !collect(node, (n) => n.tag === 'img' || n.tag === 'math').length;
  });
  // A table of one cell is its cell.
  for (const table of tables) {
    const body = hasSingleTagInside(table, 'tbody') ? firstElement(table)! : table;
    if (!hasSingleTagInside(body, 'tr')) continue;
    const row = firstElement(body)!;
    if (!hasSingleTagInside(row, 'td')) continue;
    const cell = firstElement(row)!;
    let phrasing = true;
    for (let child = cell.first; child && phrasing; child = child.next) phrasing = isPhrasing(child);
    cell.tag = phrasing ? 'p' : 'div';
    if (table.parent) replace(table, cell);
  }
}

function collect(root: HNode, test: (node: HNode) => boolean, skip?: (node: HNode) => boolean): HNode[] {
  const found: HNode[] = [];
  let at = root.first;
  while (at && at !== root) {
    if (!isText(at) && test(at)) found.push(at);
    if (at.first && !(skip && skip(at))) at = at.first;
    else {
      while (at && at !== root && !at.next) at = at.parent;
      if (!at || at === root) break;
      at = at.next;
    }
  }
  return found;
}

/**
 * The article of a page. Each attempt changes the tree it works on; before the next one the
 * tree is put back as parsed, and the short article the attempt found is kept as a copy.
 */
export function extractArticle(page: ParsedPage, metadata: ArticleMetadata): ExtractedArticle {
  const state: WalkState = { title: metadata.title, metadataByline: !!metadata.byline };
  const attempts: { content: HNode; length: number }[] = [];
  let flags = STRIP_UNLIKELYS | WEIGHT_CLASSES | CLEAN_CONDITIONALLY;
  const parsed = page.shape ?? snapshot(page.root);
  for (;;) {
    const content = grab(page, flags, state);
    const length = content.len!;
    if (length >= CHAR_THRESHOLD) return { content, byline: state.byline, length };
    if (!(flags & (STRIP_UNLIKELYS | WEIGHT_CLASSES | CLEAN_CONDITIONALLY))) {
      attempts.push({ content, length });
      break;
    }
    attempts.push({ content: cloneTree(content), length });
    if (flags & STRIP_UNLIKELYS) flags &= ~STRIP_UNLIKELYS;
    else if (flags & WEIGHT_CLASSES) flags &= ~WEIGHT_CLASSES;
    else flags &= ~CLEAN_CONDITIONALLY;
    restore(parsed);
  }
  attempts.sort((a, b) => b.length - a.length);
  return { content: attempts[0].content, byline: state.byline, length: attempts[0].length };
}
