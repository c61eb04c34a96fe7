// A watcher that is not inotify: macOS watches with FSEvents, and anywhere the watches run
// out the base polls (stat every second). Polling is what runs here, on Linux, in its place:
// a change made by another program must fire, for a file and for a file created in a
// watched directory.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchPath } from './watch-path.js';

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'watch-path-')));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Resolves with the first changed path under `target` that `match` accepts, while `change` keeps changing it. */
async function firstChange(target: string, change: (attempt: number) => Promise<void>, match: (p: string) => boolean): Promise<string> {
  let found: ((p: string) => void) | undefined;
  const seen = new Promise<string>((resolve) => (found = resolve));
  const stop = await watchPath(target, (p) => match(p) && found?.(p), { depth: 0, polling: true });
  try {
    // Polling compares stats a second apart; changes keep coming until one is seen.
    let attempt = 0;
    let done = false;
    void seen.then(() => (done = true));
    const writer = (async () => {
      while (!done && attempt < 25) {
        await change(attempt++);
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
      if (!done) throw new Error(`no change under ${target} seen after ${attempt} changes`);
    })();
    return await Promise.race([seen, writer.then(() => seen)]);
  } finally {
    await stop();
  }
}

describe('watchPath without inotify (polling)', () => {
  it('fires when another program changes a watched file', async () => {
    const file = path.join(dir, 'a.txt');
    await writeFile(file, 'a\n');
    const changed = await firstChange(file, (n) => writeFile(file, `a ${n} ${'x'.repeat(n)}\n`), (p) => p === file);
    expect(changed).toBe(file);
  });

  it('fires when a file is created in a watched directory', async () => {
    const created = path.join(dir, 'new.txt');
    const changed = await firstChange(dir, (n) => (n === 0 ? writeFile(created, 'new\n') : Promise.resolve()), (p) => p === created);
    expect(changed).toBe(created);
  });
});
