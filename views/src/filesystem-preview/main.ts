// ui://filesystem/preview: what read_text_file or read_media_file returned. Images as
// data: URLs with their natural size, audio with controls, markdown rendered (no raw
// HTML, no javascript: links), code highlighted by extension with line numbers, other
// binary files as a hex summary. Long text is shown a page at a time; pages past what the
// result holds come from the app-only tool fs_preview_page.
import '../common/jitless.js';
import { createApp, start, textOf, type ToolResultLike } from '../common/connect.js';
import { append, clear, h } from '../common/dom.js';
import { codeBlock, languageOf } from '../common/highlight.js';
import { renderMarkdown } from '../common/markdown.js';

const PAGE_LINES = 500;

type Media = { kind: 'image' | 'audio' | 'blob'; mimeType: string; size: number; data: string };
interface TextView {
  path: string;
  /** Lines loaded so far (from the result, then from fs_preview_page). */
  lines: string[];
  /** Lines shown (a page at a time). */
  shown: number;
  /** The number of the first line (start_line of the read). */
  first: number;
  /** Where fs_preview_page continues, or null when the file has no more. */
  nextOffset: number | null;
  mode: 'rendered' | 'source';
}
interface State {
  path?: string;
  media?: Media;
  text?: TextView;
  error?: string;
  busy: boolean;
}

const root = document.getElementById('app')!;
const state: State = { busy: false };
let toolArgs: { head?: number; tail?: number; start_line?: number } = {};
const app = createApp('filesystem-preview');
const openLink = (url: string) => void app.openLink({ url }).catch(() => undefined);
const isMarkdown = (path: string) => /\.(md|markdown|mdx)$/i.test(path);
const SAFE_IMAGE = /^image\/(png|jpeg|gif|webp|avif|bmp|svg\+xml|x-icon|vnd\.microsoft\.icon)$/;

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function hexSummary(base64: string, size: number): HTMLElement {
  const binary = atob(base64.slice(0, 688));
  const rows: string[] = [];
  for (let offset = 0; offset < Math.min(binary.length, 512); offset += 16) {
    const bytes = [...binary.slice(offset, offset + 16)].map((c) => c.charCodeAt(0));
    const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = bytes.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    rows.push(`${offset.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  if (size > 512) rows.push(`… ${size - 512} more bytes`);
  return h('pre', { class: 'hex', id: 'hex' }, rows.join('\n'));
}

function renderMedia(media: Media): HTMLElement {
  const src = `data:${media.mimeType};base64,${media.data}`;
  if (media.kind === 'image' && SAFE_IMAGE.test(media.mimeType)) {
    const dims = h('span', { id: 'dimensions', class: 'muted' });
    // An <img> never runs script, SVG included.
    const img = h('img', { id: 'image', alt: state.path ?? 'image', src });
    img.addEventListener('load', () => (dims.textContent = `${img.naturalWidth} × ${img.naturalHeight} px`));
    return h('div', { class: 'media' }, img, h('div', { class: 'bar' }, dims));
  }
  if (media.kind === 'audio') return h('div', { class: 'media' }, h('audio', { controls: true, src }));
  return hexSummary(media.data, media.size);
}

function renderText(text: TextView): Node[] {
  const body = text.lines.slice(0, text.shown).join('\n');
  const canShowMore = text.shown < text.lines.length || text.nextOffset !== null;
  const more = h('button', { type: 'button', id: 'more', disabled: state.busy || !canShowMore }, canShowMore ? `Show ${PAGE_LINES} more lines` : 'End of file');
  more.addEventListener('click', () => void showMore());
  const markdown = isMarkdown(text.path);
  const toggle = markdown ? h('button', { type: 'button', id: 'toggle' }, text.mode === 'rendered' ? 'Show source' : 'Show rendered') : null;
  toggle?.addEventListener('click', () => {
    text.mode = text.mode === 'rendered' ? 'source' : 'rendered';
    render();
  });
  return [
    h('div', { class: 'bar' }, h('span', { id: 'lines', class: 'muted' }, `lines ${text.first}–${text.first - 1 + Math.min(text.shown, text.lines.length)}`), h('span', { class: 'grow' }), toggle),
    markdown && text.mode === 'rendered'
      ? h('div', { class: 'doc', id: 'content' }, renderMarkdown(body, { onLink: openLink }))
      : h('div', { id: 'content' }, codeBlock(body, markdown ? undefined : languageOf(text.path), text.first)),
    h('div', { class: 'more' }, more),
  ];
}

function render(): void {
  clear(root);
  append(root, [
    state.path ? h('div', { class: 'bar' }, h('span', { class: 'path', id: 'path' }, state.path), h('span', { class: 'grow' }), state.media ? h('span', { class: 'muted', id: 'size' }, `${state.media.mimeType}, ${formatSize(state.media.size)}`) : null) : null,
    state.error ? h('div', { class: 'error', id: 'error' }, state.error) : null,
  ]);
  if (state.media) root.append(renderMedia(state.media));
  else if (state.text) append(root, renderText(state.text));
}

function show(result: ToolResultLike): void {
  Object.assign(state, { path: undefined, media: undefined, text: undefined, error: undefined });
  const out = result.structuredContent as Record<string, unknown> | undefined;
  if (result.isError || !out) {
    state.error = textOf(result) || 'The file could not be read.';
  } else if (typeof out.kind === 'string') {
    state.path = String(out.path);
    const blocks = (result.content ?? []) as { type: string; data?: string; resource?: { blob?: string } }[];
    const block = blocks.find((b) => b.type === 'image' || b.type === 'audio' || (b.type === 'resource' && b.resource?.blob));
    const data = block?.data ?? block?.resource?.blob ?? '';
    state.media = { kind: out.kind as Media['kind'], mimeType: String(out.mimeType), size: Number(out.size), data };
  } else {
    state.path = String(out.path);
    const content = String(out.content ?? '');
    const lines = content === '' ? [] : content.replace(/\n$/, '').split('\n');
    const first = toolArgs.tail ? 1 : (toolArgs.start_line ?? 1);
    // A cut whole read says where to go on; a head or a range goes on after its last line;
    // a tail is the end of the file.
    const next =
      typeof out.nextStartLine === 'number' ? out.nextStartLine - 1 : out.truncated && !toolArgs.tail ? first - 1 + lines.length : null;
    state.text = { path: state.path, lines, shown: PAGE_LINES, first, nextOffset: next, mode: 'rendered' };
  }
  render();
}

async function showMore(): Promise<void> {
  const text = state.text;
  if (!text) return;
  if (text.shown < text.lines.length) {
    text.shown += PAGE_LINES;
    render();
    return;
  }
  if (text.nextOffset === null) return;
  state.busy = true;
  render();
  try {
    const result = (await app.callServerTool({ name: 'fs_preview_page', arguments: { path: text.path, offset: text.nextOffset } })) as ToolResultLike;
    const page = result.structuredContent as { content: string; next_offset: number | null } | undefined;
    if (result.isError || !page) state.error = textOf(result) || 'Could not read more of the file.';
    else {
      text.lines.push(...(page.content === '' ? [] : page.content.replace(/\n$/, '').split('\n')));
      text.nextOffset = page.next_offset;
      text.shown += PAGE_LINES;
    }
  } catch (error) {
    state.error = `Could not read more of the file: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    state.busy = false;
    render();
  }
}

app.ontoolinput = ({ arguments: args }) => {
  toolArgs = (args ?? {}) as typeof toolArgs;
};
app.ontoolresult = (result) => show(result as ToolResultLike);
render();
void start(app);
