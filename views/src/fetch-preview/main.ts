// ui://fetch/preview: a fetched page as rendered markdown (or its source), with its title,
// final URL and status; "Continue" loads the next piece through the app-only tool
// fetch_continue. Remote images are placeholders: a view loads nothing from the network.
import '../common/jitless.js';
import { createApp, start, textOf, type ToolResultLike } from '../common/connect.js';
import { append, clear, h } from '../common/dom.js';
import { renderMarkdown } from '../common/markdown.js';

interface PageOut {
  url: string;
  final_url: string;
  status: number;
  content_type: string;
  title: string;
  content: string;
  start_index: number;
  next_start_index: number | null;
  total_length: number;
  truncated: boolean;
}

interface State {
  page?: PageOut;
  content: string;
  image?: { data: string; mimeType: string };
  mode: 'rendered' | 'source';
  maxLength: number;
  raw: boolean;
  busy: boolean;
  error?: string;
}

const root = document.getElementById('app')!;
const state: State = { content: '', mode: 'rendered', maxLength: 5000, raw: false, busy: false };
const app = createApp('fetch-preview');
const openLink = (url: string) => void app.openLink({ url }).catch(() => undefined);
const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp|avif|bmp)$/;

function render(): void {
  clear(root);
  const { page } = state;
  if (!page) {
    append(root, [state.error ? h('div', { class: 'error' }, state.error) : h('div', { class: 'muted', style: 'padding:8px' }, 'Waiting for the page…')]);
    return;
  }
  const finalUrl = h('a', { href: '#', id: 'final-url' }, page.final_url);
  finalUrl.addEventListener('click', (event) => {
    event.preventDefault();
    if (/^https?:/i.test(page.final_url)) openLink(page.final_url);
  });
  const toggle = h('button', { type: 'button', id: 'toggle' }, state.mode === 'rendered' ? 'Show markdown source' : 'Show rendered');
  toggle.addEventListener('click', () => {
    state.mode = state.mode === 'rendered' ? 'source' : 'rendered';
    render();
  });
  const shown = state.content.length;
  const more = page.next_start_index !== null;
  const next = h('button', { type: 'button', id: 'continue', disabled: state.busy || !more }, more ? 'Continue' : 'End of page');
  next.addEventListener('click', () => void load());
  append(root, [
    h(
      'div',
      { class: 'head' },
      h('h1', { id: 'title' }, page.title || page.final_url),
      h('div', { class: 'meta' }, h('span', { id: 'status', class: page.status >= 400 ? 'status bad' : 'status' }, String(page.status)), finalUrl, h('span', {}, page.content_type)),
    ),
    h('div', { class: 'bar' }, h('span', { id: 'progress', class: 'muted' }, `${shown.toLocaleString('en')} of ${page.total_length.toLocaleString('en')} characters`), h('span', { class: 'grow' }), toggle),
    state.image ? h('img', { class: 'page-image', alt: page.title, src: `data:${state.image.mimeType};base64,${state.image.data}` }) : null,
    state.mode === 'rendered'
      ? h('div', { class: 'doc', id: 'content' }, renderMarkdown(state.content, { onLink: openLink }))
      : h('pre', { class: 'source', id: 'content' }, state.content),
    h('div', { class: 'more' }, next, state.error ? h('span', { class: 'error' }, state.error) : null),
  ]);
}

function show(result: ToolResultLike): void {
  if (result.isError || !result.structuredContent) {
    Object.assign(state, { page: undefined, error: textOf(result) || 'The fetch failed.' });
    render();
    return;
  }
  const page = result.structuredContent as unknown as PageOut;
  const image = ((result.content ?? []) as { type: string; data?: string; mimeType?: string }[]).find(
    (block) => block.type === 'image' && IMAGE_TYPES.test(block.mimeType ?? ''),
  );
  Object.assign(state, { page, content: page.content, image: image ? { data: image.data!, mimeType: image.mimeType! } : undefined, error: undefined });
  render();
}

async function load(): Promise<void> {
  const page = state.page;
  if (!page || page.next_start_index === null) return;
  state.busy = true;
  render();
  try {
    const result = (await app.callServerTool({
      name: 'fetch_continue',
      arguments: { url: page.url, start_index: page.next_start_index, max_length: state.maxLength, raw: state.raw },
    })) as ToolResultLike;
    if (result.isError || !result.structuredContent) state.error = textOf(result) || 'Could not load the next piece.';
    else {
      const piece = result.structuredContent as unknown as PageOut;
      Object.assign(state, { page: piece, content: state.content + piece.content, error: undefined });
    }
  } catch (error) {
    state.error = `Could not load the next piece: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    state.busy = false;
    render();
  }
}

app.ontoolinput = ({ arguments: args }) => {
  if (typeof args?.max_length === 'number') state.maxLength = args.max_length;
  if (typeof args?.raw === 'boolean') state.raw = args.raw;
};
app.ontoolresult = (result) => show(result as ToolResultLike);
render();
void start(app);
