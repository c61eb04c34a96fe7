import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { BaseContext, ToolResult } from '@mcp-reference/shared';
import type { GitContext } from '../context.js';
import type { Repo } from '../lib/repo.js';
import { parseStatus } from '../lib/parse.js';
import { DIFF_SAFETY, git } from './common.js';

type Ctx = BaseContext & GitContext & { error(message: string): ToolResult };

/**
 * A change the user confirms is asked about BEFORE the repository's write lock is taken:
 * a person may take minutes to answer, and while the lock is held every other session's
 * write to the repository waits. After the answer the tool locks, looks again, and does
 * nothing if what the person was asked about changed meanwhile (another session staged,
 * edited or committed): they agreed to discard what they were shown, not what came after.
 */

/** What a tool looks at before it asks, and again under the lock. */
export interface Seen {
  /** Equal for two looks exactly when nothing the person was asked about changed. */
  key: string;
  /** The question, or undefined when there is nothing to ask (nothing would be lost). */
  question?: string;
}

/** How often a change between the look and the lock (with nothing asked yet) is looked at again. */
const MAX_LOOKS = 3;

export async function askThenLock<S extends Seen, T>(
  ctx: Ctx,
  repo: Repo,
  steps: {
    /** What there is now; `again` under the lock, where only `key` is compared (no question needed). */
    look(again: boolean): Promise<S>;
    /** The answer when the person declines. */
    declined: string;
    /** The answer when what the person saw changed before the lock was taken (or kept changing, with nothing asked). */
    changed: string;
    act(seen: S): Promise<T>;
  },
): Promise<T | ToolResult> {
  for (let round = 1; ; round++) {
    const seen = await steps.look(false);
    // The answer is bound to `key`: on 2026-07-28 a change between the rounds that words the
    // question alike (same files, same line counts) is asked about again.
    if (seen.question !== undefined && !(await ctx.confirm(seen.question, { subject: seen.key }))) return ctx.error(steps.declined);
    const outcome = await ctx.git.exclusive(repo, async () => {
      const now = await steps.look(true);
      if (now.key === seen.key) return { done: await steps.act(seen) };
      // Nothing asked yet: the change came between the look and the lock; look (and ask) again.
      if (seen.question === undefined && round < MAX_LOOKS) return undefined;
      return { done: ctx.error(steps.changed) };
    });
    if (outcome !== undefined) return outcome.done;
  }
}

export interface WorktreeSeen extends Seen {
  /** Tracked files with uncommitted changes, staged or not. */
  files: string[];
  /** The staged ones among them. */
  staged: string[];
}

/**
 * The uncommitted changes to tracked files, as `git status` reports them (with HEAD and the
 * index's object names), plus each changed file's inode, size and times: a file edited again
 * keeps its status line, not its times. `question` is given the files and a description of
 * them for the person (up to five names, and the lines added and removed against HEAD, which
 * costs a diff: without `question`, as under the lock, there is no question and no diff).
 * On 2026-07-28 a call that asked runs again from the top with the answer, and an answer
 * counts only for the same question about the same `key` (askThenLock passes it as the
 * confirmation's subject): any change between the rounds is asked about again, one that keeps
 * the files and their line counts too.
 */
export async function lookAtWorktree(ctx: Ctx, repo: Repo, question: ((files: string[], described: string) => string) | undefined): Promise<WorktreeSeen> {
  const text = (await git(ctx, repo, ['status', '--porcelain=v2', '-z', '--branch', '--no-ahead-behind', '--untracked-files=no'])).stdout.toString();
  const status = parseStatus(text);
  const files = status.files.map((f) => f.path);
  const stats: string[] = [];
  for (const file of files) {
    // Metadata only: a FIFO or a socket in the work tree is looked at, never opened.
    const stat = lstatSync(path.join(repo.root, file), { bigint: true, throwIfNoEntry: false });
    stats.push(stat ? `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}` : '-');
  }
  const key = `${text}\0\0${stats.join('\0')}`;
  const staged = status.files.filter((f) => f.staged).map((f) => f.path);
  if (question === undefined || files.length === 0) return { key, files, staged };
  // " 2 files changed, 10 insertions(+), 2 deletions(-)"; nothing without a HEAD to compare with.
  const shortstat = await git(ctx, repo, ['diff', ...DIFF_SAFETY, '--shortstat', 'HEAD', '--'], { okCodes: [128] });
  const lines = shortstat.code === 0 ? shortstat.stdout.toString().trim().replace(/^\d+ files? changed, /, '') : '';
  return { key, question: question(files, lines ? `${someOf(files)}; ${lines}` : someOf(files)), files, staged };
}

/** Up to five of `files`, for a question. */
function someOf(files: readonly string[]): string {
  return `${files.slice(0, 5).join(', ')}${files.length > 5 ? ', ...' : ''}`;
}
