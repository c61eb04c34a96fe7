// Issue 21 item 7: a directory subscription took one inotify watch per file (50
// subscriptions of 1,000 files: 50,051 watches, enough to exhaust the user's limit for
// every other program). One watch per directory, shared; a process-wide budget; past it,
// polling, and the subscriber is told.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createWatchRegistry, watchPath } from './watch-path.js';
import type { Disposer } from './types.js';

let dir: string;
const disposers: Disposer[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mcp-watch-'));
});

afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
  await rm(dir, { recursive: true, force: true });
});

/** inotify watches this process holds (Linux), from /proc/self/fdinfo. */
function inotifyWatches(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    try {
      count += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').split('\n').filter((line) => line.startsWith('inotify wd:')).length;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}

function makeDirs(count: number, files: number): string[] {
  return Array.from({ length: count }, (_, d) => {
    const sub = path.join(dir, `d${d}`);
    mkdirSync(sub);
    for (let f = 0; f < files; f++) writeFileSync(path.join(sub, `f${f}.txt`), `${f}\n`);
    return sub;
  });
}

function nextChange(): { seen: string[]; wait: (predicate: (p: string) => boolean) => Promise<void>; changed: (p: string) => void } {
  const seen: string[] = [];
  const waiters: { predicate: (p: string) => boolean; resolve: () => void }[] = [];
  return {
    seen,
    changed(p) {
      seen.push(p);
      for (const w of [...waiters]) if (w.predicate(p)) w.resolve();
    },
    wait: (predicate) =>
      seen.some(predicate) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ predicate, resolve })),
  };
}

describe.runIf(process.platform === 'linux')('watchPath', () => {
  it('takes one OS watch per directory, however many files and subscriptions', async () => {
    const dirs = makeDirs(5, 200);
    const before = inotifyWatches();
    const events = nextChange();
    for (let round = 0; round < 10; round++) {
      for (const sub of dirs) disposers.push(await watchPath(sub, events.changed, { depth: 0 }));
    }
    // Files subscribed to one by one go through their directory's watch too.
    for (let f = 0; f < 50; f++) disposers.push(await watchPath(path.join(dirs[0], `f${f}.txt`), events.changed));
    expect(inotifyWatches() - before).toBeLessThanOrEqual(dirs.length);
    writeFileSync(path.join(dirs[3], 'f7.txt'), 'changed\n');
    await events.wait((p) => p === path.join(dirs[3], 'f7.txt'));
    for (const dispose of disposers.splice(0)) await dispose();
    // libuv lets go of a closed watch on a later turn of the loop.
    for (let i = 0; i < 50 && inotifyWatches() !== before; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(inotifyWatches()).toBe(before);
  });

  it('keeps firing for a file replaced by rename, again and again', async () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, '0\n');
    const events = nextChange();
    disposers.push(await watchPath(file, events.changed));
    for (let i = 1; i <= 3; i++) {
      const count = events.seen.length;
      writeFileSync(`${file}.tmp`, `${i}\n`);
      renameSync(`${file}.tmp`, file);
      await events.wait(() => events.seen.length > count);
    }
    expect(events.seen.every((p) => p === file)).toBe(true);
  });
});

describe('a process-wide watch budget', () => {
  it('past the budget, polls and says what it could not watch; the subscription still fires', async () => {
    const registry = createWatchRegistry(1);
    const dirs = makeDirs(2, 3);
    const told: string[] = [];
    const first = nextChange();
    const second = nextChange();
    disposers.push(await registry.watch(dirs[0], undefined, first.changed, { onError: (e) => told.push(e.message) }));
    disposers.push(await registry.watch(dirs[1], undefined, second.changed, { onError: (e) => told.push(e.message), pollMs: 50 }));
    disposers.push(await registry.watch(dirs[1], 'f1.txt', second.changed, { onError: (e) => told.push(e.message), pollMs: 50 }));
    expect(registry.stats()).toMatchObject({ watched: 1, polled: 1, budget: 1 });
    expect(told[0]).toMatch(new RegExp(`budget: ${dirs[1].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not watched; polling`));
    expect(told).toHaveLength(2);
    writeFileSync(path.join(dirs[1], 'new.txt'), 'x\n');
    await second.wait((p) => p === path.join(dirs[1], 'new.txt'));
    // A file subscribed to by name in a polled directory: its changes are seen too.
    writeFileSync(path.join(dirs[1], 'f1.txt'), 'longer content\n');
    await second.wait((p) => p === path.join(dirs[1], 'f1.txt'));
    for (const dispose of disposers.splice(0)) await dispose();
    expect(registry.stats()).toMatchObject({ watched: 0, polled: 0 });
  });
});
