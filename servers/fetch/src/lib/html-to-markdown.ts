// The one place that knows how HTML becomes markdown: swap the engine here and nothing
// else changes.
//
// Engine: htmlparser2 builds a light tree (html-tree.ts), the article is picked by a port
// of Readability's algorithm (article-extractor.ts), its metadata read the way Readability
// reads it (article-metadata.ts), and a small emitter writes GFM (markdown-emitter.ts).
// Every step is linear in the size of the page. Measured on this machine on Readability's
// own test pages, it takes a fraction of linkedom + @mozilla/readability + turndown's time
// (linkedom recomputes child lists on every access, which Readability and turndown do
// constantly) for the same article.
import { articleMetadata } from './article-metadata.js';
import { extractArticle } from './article-extractor.js';
import { descendants, parseHtml, textContent } from './html-tree.js';
import { toMarkdown } from './markdown-emitter.js';

export interface ConvertInput {
  html: string;
  /** The page's URL: relative links and images become absolute against it. */
  url: string;
}

export interface Converted {
  title: string;
  markdown: string;
  byline?: string;
  siteName?: string;
  publishedTime?: string;
  excerpt?: string;
  lang?: string;
}

/** HTML to clean markdown, on the calling thread (see converter.ts for off-thread use). */
export function htmlToMarkdown(input: ConvertInput): Converted {
  const page = parseHtml(input.html);
  const metadata = articleMetadata(page, () => {
    const h1: string[] = [];
    const h2: string[] = [];
    for (const node of page.headings) (node.tag === 'h1' ? h1 : h2).push(textContent(node));
    return { h1, h2 };
  });
  const article = extractArticle(page, metadata);
  const markdown = toMarkdown(article.content, input.url);
  const excerpt = metadata.excerpt ?? firstParagraph(article.content);
  const converted: Converted = { title: metadata.title, markdown };
  const byline = metadata.byline ?? article.byline;
  if (byline) converted.byline = byline;
  if (metadata.siteName) converted.siteName = metadata.siteName;
  if (metadata.publishedTime) converted.publishedTime = metadata.publishedTime;
  if (excerpt) converted.excerpt = excerpt;
  if (page.lang) converted.lang = page.lang;
  return converted;
}

function firstParagraph(content: Parameters<typeof textContent>[0]): string | undefined {
  for (const node of descendants(content)) if (node.tag === 'p') return textContent(node).trim() || undefined;
  return undefined;
}
