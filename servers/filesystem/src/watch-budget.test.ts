// Issue 21 item 7: a directory subscription took one inotify watch per file (50
// subscriptions of 1,000 files: 50,051 watches). Now one watch per directory, a
// process-wide budget, and a subscribe past it says what it could not watch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { processWatchRegistry } from '@mcp-reference/shared';
import { makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { open, sleep, type Session } from './test-support.js';

let tree: TempTree;
let session: Session;
const DIRS = 10;

beforeAll(async () => {
  const dirs: Record<string, Record<string, string>> = {};
  for (let d = 0; d < DIRS; d++) dirs[`d${d}`] = Object.fromEntries(Array.from({ length: 200 }, (_, f) => [`f${f}.txt`, `${f}\n`]));
  tree = await makeTempTree(dirs);
  session = await open({ dirs: [tree.dir] });
  await session.client.setLoggingLevel('warning');
});

afterAll(async () => {
  await session?.close();
  await tree?.cleanup();
});

/** inotify watches this process holds, from /proc/self/fdinfo. */
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

const uriOf = (d: number) => pathToFileURL(tree.path(`d${d}`)).href;

describe.runIf(process.platform === 'linux')('directory subscriptions', () => {
  it('take one watch per directory, not one per file', async () => {
    const before = inotifyWatches();
    for (let d = 0; d < 5; d++) await session.client.subscribeResource({ uri: uriOf(d) });
    expect(inotifyWatches() - before).toBeLessThanOrEqual(5);
    await writeFile(tree.path('d2', 'f3.txt'), 'changed\n');
    await session.waitForNotification('notifications/resources/updated', (p) => p?.uri === uriOf(2), 15_000);
    for (let d = 0; d < 5; d++) await session.client.unsubscribeResource({ uri: uriOf(d) });
  }, 30_000);

  it('past the process budget, a subscription is polled and the subscriber is told', async () => {
    const registry = processWatchRegistry();
    const { budget } = registry.stats();
    registry.setBudget(registry.stats().watched + 1);
    try {
      await session.client.subscribeResource({ uri: uriOf(6) });
      await session.client.subscribeResource({ uri: uriOf(7) });
      await sleep(50);
      const said = session.notifications
        .filter((n) => n.method === 'notifications/message')
        .map((n) => JSON.stringify(n.params))
        .join('\n');
      expect(said).toMatch(/budget: .*d7 is not watched; polling it every 2 s/);
      expect(said).not.toMatch(/d6 is not watched/);
      await writeFile(tree.path('d7', 'new.txt'), 'added\n');
      await session.waitForNotification('notifications/resources/updated', (p) => p?.uri === uriOf(7), 15_000);
    } finally {
      registry.setBudget(budget);
      await session.client.unsubscribeResource({ uri: uriOf(6) });
      await session.client.unsubscribeResource({ uri: uriOf(7) });
    }
  }, 30_000);
});
