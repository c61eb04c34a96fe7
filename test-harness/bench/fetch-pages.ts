// Generated pages shaped like real sites: the main content (sentences that must survive
// conversion) wrapped in what real pages carry around it (navigation, cookie banner,
// inline scripts and styles, sidebars, footer), each marked with a NOISE token that must
// not reach the markdown.

export interface GeneratedPage {
  name: string;
  html: string;
  /** Every sentence of the main content. */
  sentences: string[];
  /** Tokens that appear only in boilerplate. */
  noise: string[];
}

const NOISE = ['NOISE-SCRIPT', 'NOISE-STYLE', 'NOISE-NAV', 'NOISE-COOKIE', 'NOISE-FOOTER', 'NOISE-SIDEBAR', 'NOISE-JSONLD'];

function sentence(kind: string, i: number): string {
  return `The ${kind} sentence ${i} says something specific about the topic, with a clause, and ends here.`;
}

function chrome(body: string, title: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>.NOISE-STYLE { color: red } body { font-family: sans-serif }</style>
<script>window.dataLayer = []; console.log("NOISE-SCRIPT");</script>
<script type="application/ld+json">{"@type": "NewsArticle", "headline": "NOISE-JSONLD"}</script>
</head><body>
<header class="site-header"><a class="logo" href="/">Site</a>
<nav class="main-nav"><ul><li><a href="/world">World NOISE-NAV</a></li><li><a href="/tech">Tech</a></li><li><a href="/about">About</a></li></ul></nav></header>
<div id="cookie-consent" class="cookie-banner" role="dialog"><p>We use cookies to improve your experience. NOISE-COOKIE</p><button>Accept all</button></div>
${body}
<aside class="sidebar"><h3>Popular</h3><ul><li><a href="/p1">Most read NOISE-SIDEBAR</a></li><li><a href="/p2">Trending</a></li></ul></aside>
<footer class="site-footer"><p>© 2026 Site. <a href="/privacy">Privacy NOISE-FOOTER</a> <a href="/terms">Terms</a></p></footer>
<script>document.querySelectorAll("a").forEach(a => a.dataset.x = "NOISE-SCRIPT")</script>
</body></html>`;
}

export function newsArticle(paragraphs = 40): GeneratedPage {
  const sentences = Array.from({ length: paragraphs }, (_, i) => sentence('news', i));
  const body = `<main><article><h1>Markets rally on the news</h1><p class="byline">By A. Reporter</p>
${sentences.map((s, i) => (i % 10 === 9 ? `<h2>Section ${i}</h2><p>${s}</p>` : `<p>${s} <a href="/related/${i}">More</a></p>`)).join('\n')}
</article></main>`;
  return { name: 'news article', html: chrome(body, 'Markets rally'), sentences, noise: NOISE };
}

export function docsPage(): GeneratedPage {
  const sentences = Array.from({ length: 30 }, (_, i) => sentence('docs', i));
  const body = `<div class="layout"><div class="toc-sidebar" role="navigation"><a href="#a">Install NOISE-NAV</a></div>
<div class="content"><h1>Configuration</h1>
${sentences.map((s, i) => `<p>${s}</p>${i % 6 === 5 ? `<pre><code class="language-ts">const option${i} = true;</code></pre>` : ''}`).join('\n')}
<table><thead><tr><th>Option</th><th>Default</th></tr></thead><tbody><tr><td>timeout</td><td>30</td></tr></tbody></table>
</div></div>`;
  return { name: 'docs page', html: chrome(body, 'Configuration'), sentences, noise: NOISE };
}

export function blogPost(): GeneratedPage {
  const sentences = Array.from({ length: 25 }, (_, i) => sentence('blog', i));
  const body = `<div id="wrapper"><div class="post-body entry-content"><h1>What I learned</h1>
${sentences.map((s, i) => (i % 5 === 4 ? `<blockquote><p>${s}</p></blockquote>` : `<p>${s}</p>`)).join('\n')}
<ul><li>first point</li><li>second point</li></ul></div>
<div class="share-buttons social">Share on NOISE-SIDEBAR</div></div>`;
  return { name: 'blog post', html: chrome(body, 'What I learned'), sentences, noise: NOISE };
}

export function forumThread(): GeneratedPage {
  const sentences = Array.from({ length: 24 }, (_, i) => sentence('forum', i));
  const posts = sentences.map(
    (s, i) => `<article class="post"><div class="author">user${i}</div><div class="post-text"><p>${s}</p></div></article>`,
  );
  const body = `<div class="thread"><h1>How do I configure this?</h1>${posts.join('\n')}</div>`;
  return { name: 'forum thread', html: chrome(body, 'Forum'), sentences, noise: NOISE };
}

/** A news article of about `bytes` of HTML. */
export function largeArticle(bytes: number): GeneratedPage {
  const one = newsArticle(1);
  const per = sentence('news', 0).length + 40;
  return newsArticle(Math.max(10, Math.round((bytes - one.html.length) / per)));
}

/** What is wrong with a conversion: missing sentences and leaked boilerplate. */
export function checkConversion(page: GeneratedPage, markdown: string): { missing: string[]; leaked: string[] } {
  return {
    missing: page.sentences.filter((s) => !markdown.includes(s)),
    leaked: page.noise.filter((token) => markdown.includes(token)),
  };
}
