// ui://git/diff: the diff of git_diff, git_diff_staged, git_diff_unstaged or git_show,
// unified or split, highlighted by file type, a page of hunks at a time. A commit diff cut
// at the server's output limit goes on through git_commit_diff.
import '../common/jitless.js';
import { createApp, start, textOf, type ToolResultLike } from '../common/connect.js';
import { loadCommitDiff } from '../common/commit-diff.js';
import { renderHunks, splitHunks, type Hunk } from '../common/diff.js';
import { append, clear, h } from '../common/dom.js';

const PAGE_HUNKS = 50;
const PAGE_LINES = 1000;

interface FileStat {
  path: string;
  additions: number;
  deletions: number;
  status: string;
}
interface State {
  repo?: string;
  commit?: { commit: string; subject: string; author: string; author_email: string; date: string };
  message?: string;
  files: FileStat[];
  hunks: Hunk[];
  shown: number;
  /** Where git_commit_diff goes on when the result's diff was cut, or null. */
  serverOffset: number | null;
  mode: 'unified' | 'split';
  busy: boolean;
  error?: string;
}

const root = document.getElementById('app')!;
const state: State = { files: [], hunks: [], shown: 0, serverOffset: null, mode: 'unified', busy: false };
const app = createApp('git-diff');

/** How many hunks the next page shows: up to PAGE_HUNKS, and about PAGE_LINES lines. */
function nextPage(from: number): number {
  let lines = 0;
  let end = from;
  while (end < state.hunks.length && end - from < PAGE_HUNKS && (end === from || lines + state.hunks[end].lines.length <= PAGE_LINES)) {
    lines += state.hunks[end].lines.length;
    end++;
  }
  return end;
}

function render(): void {
  clear(root);
  const toggle = h('button', { type: 'button', id: 'mode' }, state.mode === 'unified' ? 'Split' : 'Unified');
  toggle.addEventListener('click', () => {
    state.mode = state.mode === 'unified' ? 'split' : 'unified';
    render();
  });
  const canMore = state.shown < state.hunks.length || state.serverOffset !== null;
  const more = h('button', { type: 'button', id: 'more-hunks', disabled: state.busy || !canMore }, canMore ? 'More hunks' : 'All hunks shown');
  more.addEventListener('click', () => void showMore());
  const { commit } = state;
  append(root, [
    commit
      ? h(
          'div',
          { class: 'commit', id: 'commit' },
          h('span', { class: 'sha' }, commit.commit.slice(0, 12)),
          ' ',
          h('strong', {}, commit.subject),
          h('div', { class: 'muted' }, `${commit.author} <${commit.author_email}> · ${commit.date}`),
          state.message && state.message !== commit.subject ? h('div', { class: 'message' }, state.message) : null,
        )
      : null,
    h('div', { class: 'bar' }, h('span', { id: 'summary' }, state.files.length ? `${state.files.length} file${state.files.length === 1 ? '' : 's'} changed` : 'No changes'), h('span', { class: 'grow' }), h('span', { class: 'muted', id: 'hunk-count' }, `${Math.min(state.shown, state.hunks.length)} of ${state.hunks.length} hunks`), toggle),
    state.files.length
      ? h('div', { class: 'files', id: 'files' }, ...state.files.map((f) => h('div', {}, h('span', { class: 'plus' }, `+${f.additions}`), ' ', h('span', { class: 'minus' }, `-${f.deletions}`), ' ', f.path)))
      : null,
    state.error ? h('div', { class: 'error' }, state.error) : null,
    renderHunks(state.hunks.slice(0, state.shown), state.mode),
    h('div', { class: 'more' }, more),
  ]);
}

async function showMore(): Promise<void> {
  if (state.shown < state.hunks.length) {
    state.shown = nextPage(state.shown);
    render();
    return;
  }
  if (state.serverOffset === null || !state.repo || !state.commit) return;
  state.busy = true;
  render();
  try {
    const page = await loadCommitDiff(app, state.repo, state.commit.commit, state.serverOffset);
    state.hunks.push(...page.hunks);
    state.serverOffset = page.next_offset;
    state.shown = state.hunks.length;
    state.error = undefined;
  } catch (error) {
    state.error = error instanceof Error ? error.message : String(error);
  } finally {
    state.busy = false;
    render();
  }
}

app.ontoolresult = (raw) => {
  const result = raw as ToolResultLike;
  const out = result.structuredContent as { repository: string; diff: string; truncated: boolean; files: FileStat[]; commit?: State['commit']; message?: string } | undefined;
  if (result.isError || !out) {
    Object.assign(state, { files: [], hunks: [], shown: 0, error: textOf(result) || 'The diff failed.' });
    render();
    return;
  }
  const hunks = splitHunks(out.diff);
  // A cut diff ends in a partial hunk: a commit's goes on from that hunk on the server.
  const cut = out.truncated && out.commit !== undefined && hunks.length > 0;
  if (cut) hunks.pop();
  Object.assign(state, { repo: out.repository, commit: out.commit, message: out.message, files: out.files, hunks, serverOffset: cut ? hunks.length : null, error: undefined });
  state.shown = nextPage(0);
  render();
};
render();
void start(app);
