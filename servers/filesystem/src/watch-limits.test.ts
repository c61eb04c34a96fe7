// Issue 13 item 4 (filesystem part): subscriptions that run out of inotify watches must not
// crash the server; they degrade (the base's watchPath falls back to polling) and keep
// firing. The limit is lowered for the server alone: in a new user namespace,
// /proc/sys/user/max_inotify_watches belongs to that namespace, so no other process of the
// user is affected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { connectStdio, makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { bin } from './test-support.js';

// Fewer than the six directories subscribed to below (each costs one watch).
const WATCHES = 3;

/** Whether this machine lets an unprivileged process lower its own inotify limit. */
function canLimitWatches(): boolean {
  if (process.platform !== 'linux') return false;
  const probe = spawnSync('unshare', ['--user', '--map-root-user', 'sh', '-c', `echo ${WATCHES} > /proc/sys/user/max_inotify_watches`], {
    stdio: 'ignore',
  });
  return probe.status === 0;
}

let tree: TempTree;

beforeAll(async () => {
  const dirs: Record<string, Record<string, string>> = {};
  for (let d = 0; d < 6; d++) dirs[`d${d}`] = Object.fromEntries(Array.from({ length: 4 }, (_, f) => [`f${f}.txt`, `${d}/${f}\n`]));
  tree = await makeTempTree(dirs);
});

afterAll(async () => {
  await tree?.cleanup();
});

describe.runIf(canLimitWatches())('subscriptions beyond the inotify limit', () => {
  it('do not crash the server, and still fire (by polling)', async () => {
    const script = `echo ${WATCHES} > /proc/sys/user/max_inotify_watches && exec "$0" "$1" "$2"`;
    const stdio = await connectStdio('unshare', ['--user', '--map-root-user', 'sh', '-c', script, process.execPath, bin, tree.dir], {
      stderr: 'pipe',
    });
    try {
      await stdio.client.setLoggingLevel('warning');
      // One watch per directory: the fourth subscription finds none left.
      for (let d = 0; d < 6; d++) await stdio.client.subscribeResource({ uri: pathToFileURL(tree.path(`d${d}`)).href });
      const result = await stdio.client.callTool({ name: 'list_allowed_directories', arguments: {} });
      expect(result.isError).toBeFalsy();
      // The last subscription cannot have a watch of its own; it still hears of a new file.
      const last = pathToFileURL(tree.path('d5')).href;
      await writeFile(tree.path('d5', 'new.txt'), 'added\n');
      await stdio.waitForNotification('notifications/resources/updated', (p) => p?.uri === last, 15_000);
      await stdio.client.ping();
      // It was the fallback that fired: the session was told why.
      const warnings = stdio.notifications.filter((n) => n.method === 'notifications/message').map((n) => JSON.stringify(n.params));
      expect(warnings.join('\n')).toMatch(/ENOSPC.*polling/);
    } finally {
      await stdio.close();
    }
  }, 30_000);
});
