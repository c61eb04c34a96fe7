// An article's title, byline, site name, published time and excerpt, found the way
// Readability finds them: schema.org JSON-LD first, then <meta> tags (Dublin Core, Open
// Graph, Twitter, Parse.ly), then the <title> with the site's name cut off.
import type { ParsedPage } from './html-tree.js';

export interface ArticleMetadata {
  title: string;
  byline?: string;
  siteName?: string;
  publishedTime?: string;
  excerpt?: string;
}

const JSON_LD_ARTICLE_TYPES =
  /^Article|AdvertiserContentArticle|NewsArticle|AnalysisNewsArticle|AskPublicNewsArticle|BackgroundNewsArticle|OpinionNewsArticle|ReportageNewsArticle|ReviewNewsArticle|Report|SatiricalArticle|ScholarlyArticle|MedicalScholarlyArticle|SocialMediaPosting|BlogPosting|LiveBlogPosting|DiscussionForumPosting|TechArticle|APIReference$/;
const PROPERTY = /\s*(article|dc|dcterm|og|twitter)\s*:\s*(author|creator|description|published_time|title|site_name)\s*/gi;
const NAME = /^\s*(?:(dc|dcterm|og|twitter|parsely|weibo:(article|webpage))\s*[-.:]\s*)?(author|creator|pub-date|description|title|site_name)\s*$/i;
const SEPARATORS = '\\|\\-–—\\\\\\/>»';

const wordCount = (text: string) => text.split(/\s+/).length;

/** Readability's _textSimilarity: the share of B's tokens (by length) also in A. */
export function textSimilarity(a: string, b: string): number {
  const tokensA = a.toLowerCase().split(/\W+/).filter(Boolean);
  const tokensB = b.toLowerCase().split(/\W+/).filter(Boolean);
  if (!tokensA.length || !tokensB.length) return 0;
  const inA = new Set(tokensA);
  const unique = tokensB.filter((token) => !inA.has(token));
  return 1 - unique.join(' ').length / tokensB.join(' ').length;
}

/** The <title> without the site's name (Readability's _getArticleTitle). */
export function titleFromDocument(original: string, headings: { h1: string[]; h2: string[] }): string {
  const origTitle = original.trim();
  let title = origTitle;
  let hierarchical = false;
  const separated = new RegExp(`\\s[${SEPARATORS}]\\s`, 'g');
  if (new RegExp(`\\s[${SEPARATORS}]\\s`).test(title)) {
    hierarchical = /\s[\\/>\u00bb]\s/.test(title);
    const all = [...origTitle.matchAll(separated)];
    title = origTitle.substring(0, all[all.length - 1].index);
    if (wordCount(title) < 3) title = origTitle.replace(new RegExp(`^[^${SEPARATORS}]*[${SEPARATORS}]`, 'gi'), '');
  } else if (title.includes(': ')) {
    const trimmed = title.trim();
    if (![...headings.h1, ...headings.h2].some((heading) => heading.trim() === trimmed)) {
      title = origTitle.substring(origTitle.lastIndexOf(':') + 1);
      if (wordCount(title) < 3) title = origTitle.substring(origTitle.indexOf(':') + 1);
      else if (wordCount(origTitle.substring(0, origTitle.indexOf(':'))) > 5) title = origTitle;
    }
  } else if (title.length > 150 || title.length < 15) {
    if (headings.h1.length === 1) title = headings.h1[0].trim().replace(/\s{2,}/g, ' ');
  }
  title = title.trim().replace(/\s{2,}/g, ' ');
  const words = wordCount(title);
  if (words <= 4 && (!hierarchical || words !== wordCount(origTitle.replace(separated, '')) - 1)) title = origTitle;
  return title;
}

interface JsonLdFields {
  title?: string;
  byline?: string;
  excerpt?: string;
  siteName?: string;
  datePublished?: string;
}

function fromJsonLd(scripts: string[], documentTitle: () => string): JsonLdFields {
  for (const script of scripts) {
    try {
      let parsed = JSON.parse(script.replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, ''));
      if (Array.isArray(parsed)) {
        parsed = parsed.find((it) => typeof it?.['@type'] === 'string' && JSON_LD_ARTICLE_TYPES.test(it['@type']));
        if (!parsed) continue;
      }
      const context = parsed?.['@context'];
      const schema = /^https?:\/\/schema\.org\/?$/;
      const matches = (typeof context === 'string' && schema.test(context)) || (typeof context?.['@vocab'] === 'string' && schema.test(context['@vocab']));
      if (!matches) continue;
      if (!parsed['@type'] && Array.isArray(parsed['@graph'])) {
        parsed = parsed['@graph'].find((it: { '@type'?: unknown }) => typeof it?.['@type'] === 'string' && JSON_LD_ARTICLE_TYPES.test(it['@type']));
      }
      if (!parsed || typeof parsed['@type'] !== 'string' || !JSON_LD_ARTICLE_TYPES.test(parsed['@type'])) continue;
      const out: JsonLdFields = {};
      if (typeof parsed.name === 'string' && typeof parsed.headline === 'string' && parsed.name !== parsed.headline) {
        const title = documentTitle();
        const nameMatches = textSimilarity(parsed.name, title) > 0.75;
        const headlineMatches = textSimilarity(parsed.headline, title) > 0.75;
        out.title = headlineMatches && !nameMatches ? parsed.headline : parsed.name;
      } else if (typeof parsed.name === 'string') out.title = parsed.name.trim();
      else if (typeof parsed.headline === 'string') out.title = parsed.headline.trim();
      const author = parsed.author;
      if (typeof author?.name === 'string') out.byline = author.name.trim();
      else if (Array.isArray(author) && typeof author[0]?.name === 'string') {
        out.byline = author
          .filter((a: { name?: unknown }) => typeof a?.name === 'string')
          .map((a: { name: string }) => a.name.trim())
          .join(', ');
      }
      if (typeof parsed.description === 'string') out.excerpt = parsed.description.trim();
      if (typeof parsed.publisher?.name === 'string') out.siteName = parsed.publisher.name.trim();
      if (typeof parsed.datePublished === 'string') out.datePublished = parsed.datePublished.trim();
      return out;
    } catch {
      // Not JSON, or not the shape above: the next script may be.
    }
  }
  return {};
}

const isUrl = (text: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(text);

export function articleMetadata(page: ParsedPage, headings: () => { h1: string[]; h2: string[] }): ArticleMetadata {
  const documentTitle = () => titleFromDocument(page.title, headings());
  const jsonLd = fromJsonLd(page.jsonLd, documentTitle);
  const values: Record<string, string> = {};
  for (const meta of page.metas) {
    const content = meta.content;
    if (!content) continue;
    let matched = false;
    // Real property names are short; PROPERTY is unanchored, so a long one would cost quadratic time.
    if (meta.property && meta.property.length <= 200) {
      const found = meta.property.match(PROPERTY);
      if (found) {
        matched = true;
        values[found[0].toLowerCase().replace(/\s/g, '')] = content.trim();
      }
    }
    if (!matched && meta.name && NAME.test(meta.name)) values[meta.name.toLowerCase().replace(/\s/g, '').replace(/\./g, ':')] = content.trim();
  }
  const title =
    jsonLd.title ||
    values['dc:title'] ||
    values['dcterm:title'] ||
    values['og:title'] ||
    values['weibo:article:title'] ||
    values['weibo:webpage:title'] ||
    values.title ||
    values['twitter:title'] ||
    values['parsely-title'] ||
    documentTitle();
  const articleAuthor = values['article:author'] && !isUrl(values['article:author']) ? values['article:author'] : undefined;
  return {
    title: unescape(title),
    byline: unescape(jsonLd.byline || values['dc:creator'] || values['dcterm:creator'] || values.author || values['parsely-author'] || articleAuthor),
    excerpt: unescape(
      jsonLd.excerpt ||
        values['dc:description'] ||
        values['dcterm:description'] ||
        values['og:description'] ||
        values['weibo:article:description'] ||
        values['weibo:webpage:description'] ||
        values.description ||
        values['twitter:description'],
    ),
    siteName: unescape(jsonLd.siteName || values['og:site_name']),
    publishedTime: unescape(jsonLd.datePublished || values['article:published_time'] || values['parsely-pub-date']),
  };
}

const NAMED: Record<string, string> = { quot: '"', amp: '&', apos: "'", lt: '<', gt: '>' };

/** Entities left in metadata that was escaped twice (Readability's _unescapeHtmlEntities). */
function unescape<T extends string | undefined>(text: T): T {
  if (!text) return text;
  return text
    .replace(/&(quot|amp|apos|lt|gt);/g, (_, name: string) => NAMED[name])
    .replace(/&#(?:x([0-9a-f]+)|([0-9]+));/gi, (_, hex: string, dec: string) => {
      const code = parseInt(hex || dec, hex ? 16 : 10);
      return String.fromCodePoint(code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? 0xfffd : code);
    }) as T;
}
