// ui://git/log: the commits of git_log as a graph with lanes for branches and merges,
// refs and authors. A click on a commit opens its diff (git_commit_diff, a page of hunks
// at a time); "Load more" continues the log through git_log_page.
import '../common/jitless.js';
import { createApp, start, textOf, type ToolResultLike } from '../common/connect.js';
import { loadCommitDiff, type CommitDiffPage } from '../common/commit-diff.js';
import { renderHunks } from '../common/diff.js';
import { append, clear, h } from '../common/dom.js';
import { layoutGraph } from '../common/graph.js';

const ROW = 26;
const LANE = 14;
const COLORS = ['#2f6fde', '#1a7f37', '#cf222e', '#9a6700', '#8250df', '#0a7ea4', '#bf3989', '#57606a'];
const SVG = 'http://www.w3.org/2000/svg';

interface Commit {
  commit: string;
  parents: string[];
  author: string;
  date: string;
  subject: string;
}
interface Ref {
  name: string;
  kind: 'head' | 'branch' | 'tag';
  commit: string;
}
interface State {
  repo?: string;
  commits: Commit[];
  nextCursor?: string;
  refs: Ref[];
  selected?: string;
  diff?: CommitDiffPage & { hunksLoaded: CommitDiffPage['hunks'] };
  mode: 'unified' | 'split';
  busy: boolean;
  error?: string;
}

const root = document.getElementById('app')!;
const state: State = { commits: [], refs: [], mode: 'unified', busy: false };
const app = createApp('git-log');

function svg(tag: string, attributes: Record<string, string | number>): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

function graphSvg(): { element: SVGElement; width: number } {
  const graph = layoutGraph(state.commits);
  const width = graph.width * LANE + 8;
  const element = svg('svg', { width, height: state.commits.length * ROW, class: 'graph' });
  const x = (lane: number) => lane * LANE + LANE / 2 + 2;
  const y = (row: number) => row * ROW + ROW / 2;
  // One path per colour: a thousand commits make a handful of elements, not thousands.
  const paths = new Map<string, string[]>();
  for (const edge of graph.edges) {
    const color = COLORS[edge.lane % COLORS.length];
    const d =
      edge.x1 === edge.x2
        ? `M${x(edge.x1)} ${y(edge.y1)}V${y(edge.y2)}`
        : `M${x(edge.x1)} ${y(edge.y1)}C${x(edge.x1)} ${y(edge.y1) + ROW * 0.6} ${x(edge.x2)} ${y(edge.y2) - ROW * 0.6} ${x(edge.x2)} ${y(edge.y2)}`;
    if (!paths.has(color)) paths.set(color, []);
    paths.get(color)!.push(d);
  }
  for (const [color, parts] of paths) element.append(svg('path', { d: parts.join(''), stroke: color, 'stroke-width': 2, fill: 'none' }));
  for (const node of graph.nodes) {
    element.append(svg('circle', { cx: x(node.x), cy: y(node.y), r: 4, fill: COLORS[node.x % COLORS.length], stroke: 'var(--bg)', 'stroke-width': 1.5 }));
  }
  return { element, width };
}

function render(): void {
  clear(root);
  if (state.error && !state.commits.length) {
    root.append(h('div', { class: 'error' }, state.error));
    return;
  }
  const refsByCommit = new Map<string, Ref[]>();
  for (const ref of state.refs) refsByCommit.set(ref.commit, [...(refsByCommit.get(ref.commit) ?? []), ref]);
  const { element, width } = graphSvg();
  const rows = state.commits.map((c) => {
    const row = h(
      'div',
      { class: c.commit === state.selected ? 'row selected' : 'row', 'data-commit': c.commit, style: `padding-left:${width}px` },
      h('span', { class: 'sha' }, c.commit.slice(0, 7)),
      ...(refsByCommit.get(c.commit) ?? []).map((ref) => h('span', { class: `ref ${ref.kind}` }, ref.name)),
      h('span', { class: 'subject' }, c.subject),
      h('span', { class: 'author' }, c.author),
      h('span', { class: 'date' }, c.date.slice(0, 10)),
    );
    return row;
  });
  const more = h('button', { type: 'button', id: 'more', disabled: state.busy || !state.nextCursor }, state.nextCursor ? 'Load more commits' : 'End of log');
  more.addEventListener('click', () => void loadMore());
  append(root, [
    h('div', { class: 'bar' }, h('span', { id: 'count' }, `${state.commits.length} commits`), h('span', { class: 'grow' }), state.error ? h('span', { class: 'error' }, state.error) : null),
    log(element, rows),
    h('div', { class: 'more' }, more),
    state.diff ? diffPanel(state.diff) : null,
  ]);
}

function log(graph: SVGElement, rows: HTMLElement[]): HTMLElement {
  const element = h('div', { class: 'log', id: 'log' }, graph, ...rows);
  // One listener for every row.
  element.addEventListener('click', (event) => {
    const commit = (event.target as Element).closest('.row')?.getAttribute('data-commit');
    if (commit) void openCommit(commit);
  });
  return element;
}

function diffPanel(diff: NonNullable<State['diff']>): HTMLElement {
  const toggle = h('button', { type: 'button', id: 'mode' }, state.mode === 'unified' ? 'Split' : 'Unified');
  toggle.addEventListener('click', () => {
    state.mode = state.mode === 'unified' ? 'split' : 'unified';
    render();
  });
  const more = h('button', { type: 'button', id: 'more-hunks', disabled: state.busy || diff.next_offset === null }, diff.next_offset === null ? 'All hunks shown' : 'More hunks');
  more.addEventListener('click', () => void moreHunks());
  return h(
    'div',
    { class: 'panel', id: 'diff' },
    h('div', { class: 'bar' }, h('span', { class: 'sha' }, diff.commit.commit.slice(0, 12)), h('strong', {}, diff.commit.subject), h('span', { class: 'grow' }), h('span', { class: 'muted', id: 'hunk-count' }, `${diff.hunksLoaded.length} of ${diff.total_hunks} hunks`), toggle),
    h('div', { class: 'message' }, diff.message),
    renderHunks(diff.hunksLoaded, state.mode),
    h('div', { class: 'more' }, more),
  );
}

async function call<T>(work: () => Promise<T>): Promise<T | undefined> {
  state.busy = true;
  render();
  try {
    const value = await work();
    state.error = undefined;
    return value;
  } catch (error) {
    state.error = error instanceof Error ? error.message : String(error);
    return undefined;
  } finally {
    state.busy = false;
    render();
  }
}

async function logPage(cursor?: string): Promise<{ commits: Commit[]; nextCursor?: string; refs: Ref[] }> {
  const result = (await app.callServerTool({ name: 'git_log_page', arguments: { repo: state.repo, ...(cursor ? { cursor } : {}) } })) as ToolResultLike;
  if (result.isError || !result.structuredContent) throw new Error(textOf(result) || 'Could not load the log.');
  return result.structuredContent as never;
}

async function loadMore(): Promise<void> {
  const page = await call(() => logPage(state.nextCursor));
  if (!page) return;
  state.commits.push(...page.commits);
  state.nextCursor = page.nextCursor;
  state.refs = page.refs;
  render();
}

async function openCommit(sha: string): Promise<void> {
  if (!state.repo) return;
  state.selected = sha;
  const page = await call(() => loadCommitDiff(app, state.repo!, sha, 0));
  if (page && state.selected === sha) state.diff = { ...page, hunksLoaded: page.hunks };
  render();
}

async function moreHunks(): Promise<void> {
  const diff = state.diff;
  if (!diff || diff.next_offset === null || !state.repo) return;
  const page = await call(() => loadCommitDiff(app, state.repo!, diff.commit.commit, diff.next_offset!));
  if (page && state.diff === diff) state.diff = { ...page, hunksLoaded: [...diff.hunksLoaded, ...page.hunks] };
  render();
}

app.ontoolresult = (result) => {
  const out = (result as ToolResultLike).structuredContent as { repository: string; commits: Commit[]; nextCursor?: string } | undefined;
  if ((result as ToolResultLike).isError || !out) {
    state.error = textOf(result as ToolResultLike) || 'git_log failed.';
    render();
    return;
  }
  Object.assign(state, { repo: out.repository, commits: out.commits, nextCursor: out.nextCursor, refs: [], selected: undefined, diff: undefined, error: undefined });
  render();
  // The refs come after the first paint.
  void logPage().then(
    (page) => {
      state.refs = page.refs;
      render();
    },
    () => undefined,
  );
};
render();
void start(app);
