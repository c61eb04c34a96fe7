// The one place that knows how HTML becomes markdown: swap the engine here and nothing
// else changes. linkedom parses (several times faster than jsdom, no native code),
// Readability picks the main content, turndown with the GFM plugin writes markdown.
import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

export interface ConvertInput {
  html: string;
  /** The page's URL: relative links and images become absolute against it. */
  url: string;
}

export interface Converted {
  title: string;
  markdown: string;
}

/** The libraries the conversion uses, passed in so that a worker can supply its own copies. */
export interface ConversionLibraries {
  parseHTML: (html: string) => { document: unknown };
  Readability: unknown;
  TurndownService: unknown;
  gfm: unknown;
}

export const bundledLibraries: ConversionLibraries = {
  parseHTML: parseHTML as unknown as ConversionLibraries['parseHTML'],
  Readability,
  TurndownService,
  gfm,
};

/** HTML to clean markdown, on the calling thread (see converter.ts for off-thread use). */
export function htmlToMarkdown(input: ConvertInput): Converted {
  return convertWith(bundledLibraries, input);
}

/**
 * The conversion itself. It is self-contained (uses only its arguments and globals) so
 * that its source can run in a worker that loads the libraries by path during development.
 */
export const convertWith = (libs: ConversionLibraries, input: ConvertInput): Converted => {
  /* eslint-disable @typescript-eslint/no-explicit-any */
  const { document } = libs.parseHTML(input.html) as { document: any };
  const pageTitle = String(document.querySelector('title')?.textContent ?? '').trim();
  const dropped = 'script,style,noscript,template,iframe,object,embed,link,meta,svg,canvas,form,button,dialog';
  for (const node of document.querySelectorAll(dropped)) node.remove();
  const absolute = (value: string) => {
    try {
      return new URL(value, input.url).href;
    } catch {
      return value;
    }
  };
  for (const node of document.querySelectorAll('a[href]')) node.setAttribute('href', absolute(node.getAttribute('href')));
  for (const node of document.querySelectorAll('img[src]')) node.setAttribute('src', absolute(node.getAttribute('src')));
  // Boilerplate Readability may keep when the page has little else.
  const boilerplate =
    'nav,footer,aside,[role=navigation],[role=contentinfo],[role=banner],[aria-modal=true],' +
    '[id*=cookie i],[class*=cookie i],[id*=consent i],[class*=consent i],[class*=banner i],[hidden]';
  let content: any;
  let title = pageTitle;
  try {
    const article = new (libs.Readability as any)(document.cloneNode(true), { charThreshold: 200, keepClasses: true }).parse();
    if (article?.content && String(article.textContent ?? '').trim().length > 0) {
      content = libs.parseHTML(`<!doctype html><html><body>${article.content}</body></html>`).document;
      title = String(article.title || pageTitle).trim();
    }
  } catch {
    content = undefined;
  }
  const root = content ?? document;
  for (const node of root.querySelectorAll(boilerplate)) node.remove();
  if (!content) for (const node of root.querySelectorAll('header')) node.remove();
  const body = root.body ?? root.documentElement ?? root;
  const turndown = new (libs.TurndownService as any)({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    linkStyle: 'inlined',
  });
  turndown.use(libs.gfm);
  // "- item", not turndown's "-   item".
  turndown.addRule('listItem', {
    filter: 'li',
    replacement: (text: string, node: any, rules: any) => {
      const body = text.replace(/^\n+/, '').replace(/\n+$/, '\n').replace(/\n/gm, '\n  ');
      const parent = node.parentNode;
      let prefix = `${rules.bulletListMarker} `;
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? 1);
        prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      return prefix + body + (node.nextSibling && !/\n$/.test(body) ? '\n' : '');
    },
  });
  // Preformatted blocks keep their language when a class names it.
  turndown.addRule('fencedWithLanguage', {
    filter: (node: any) => node.nodeName === 'PRE' && node.firstChild?.nodeName === 'CODE',
    replacement: (_content: string, node: any) => {
      const code = node.firstChild;
      const language = /(?:lang|language)-(\S+)/.exec(String(code.getAttribute('class') ?? ''))?.[1] ?? '';
      const text = String(code.textContent ?? '').replace(/\n$/, '');
      const fence = text.includes('```') ? '~~~~' : '```';
      return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
    },
  });
  // A string, not the linkedom node: the GFM table rules need `rows`/`cells`, which
  // linkedom does not implement (turndown parses the string with its own DOM).
  const markdown = String(turndown.turndown(String(body.innerHTML ?? '')))
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, markdown };
};
