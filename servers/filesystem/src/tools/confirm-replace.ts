import { lstat } from 'node:fs/promises';
import type { BigIntStats } from 'node:fs';
import type { BaseContext } from '@mcp-reference/shared';

/**
 * Confirmation of a call that replaces an existing file, asked BEFORE the path's write
 * lock is taken: a person may take minutes to answer, and while the lock is held every
 * other session's write to that path waits. After the answer the tool locks, looks again,
 * and refuses (CONFLICT) if the file is no longer the one the person was asked about.
 */

/** 'unavailable': the client cannot be asked (no elicitation); the tool decides as the older server did. */
export type Answer = 'yes' | 'no' | 'unavailable';

// `confirm` hands back `whenUnavailable` as given when the client cannot be asked. A
// value no person can answer tells that case apart from a real yes: only a file a
// person saw can have changed "since they saw it".
const NOT_ASKED = 'not-asked' as unknown as boolean;

/**
 * Asks `question` about the entry `seen`. The answer is bound to the entry as `sameEntry`
 * compares it: on 2026-07-28 a file changed between the rounds is asked about again, even
 * when its description (size, modification time to the millisecond) reads the same.
 */
export async function askUser(ctx: BaseContext, question: string, seen: BigIntStats): Promise<Answer> {
  const subject = `${seen.dev}:${seen.ino}:${seen.size}:${seen.mtimeNs}`;
  const answer: unknown = await ctx.confirm(question, { whenUnavailable: NOT_ASKED, subject });
  return answer === NOT_ASKED ? 'unavailable' : answer === true ? 'yes' : 'no';
}

/** lstat, bigint (nanosecond mtimes), undefined when nothing is there. */
export async function lstatEntry(target: string): Promise<BigIntStats | undefined> {
  return lstat(target, { bigint: true }).catch(() => undefined);
}

/** Whether `now` is still the entry `seen` described: same inode, size and modification time. */
export function sameEntry(seen: BigIntStats | undefined, now: BigIntStats | undefined): boolean {
  if (seen === undefined || now === undefined) return seen === now;
  return seen.dev === now.dev && seen.ino === now.ino && seen.size === now.size && seen.mtimeNs === now.mtimeNs;
}

/** What the person is shown about the file to be replaced: enough to recognise it. */
export function describeEntry(stats: BigIntStats): string {
  const what = stats.isDirectory() ? 'a directory' : `${stats.size} bytes`;
  return `${what}, modified ${new Date(Number(stats.mtimeMs)).toISOString()}`;
}

export function changedWhileAsked(requested: string): string {
  return (
    `${requested} changed while the user was being asked (someone else wrote it), so it was not replaced and that change is kept. ` +
    'Look at it again, then call again if it should still be replaced.'
  );
}

/** The file appeared, or changed, between the look and the lock: look and ask again (a few times). */
export const ASK_AGAIN = Symbol('ask again');
export const MAX_ASKS = 3;
