// resources/subscribe fires notifications/resources/updated when a file (or a directory's
// entries) change on disk, made by another process; only subscribed paths are watched.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appendFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { connectInMemory, makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { createFilesystemServer } from './server.js';
import { open, sleep, type Session } from './test-support.js';

let tree: TempTree;
let session: Session;

const uri = (p: string) => pathToFileURL(p).href;
const updates = (s: Session, target: string) =>
  s.notifications.filter((n) => n.method === 'notifications/resources/updated' && n.params?.uri === target);

beforeEach(async () => {
  tree = await makeTempTree({ 'watched.txt': 'one\n', 'other.txt': 'other\n', dir: { 'existing.txt': 'e\n' } });
  session = await open({ dirs: [tree.dir] });
});

afterEach(async () => {
  await session.close();
  await tree.cleanup();
});

describe('subscriptions', () => {
  it('fire when a subscribed file changes on disk, and stop after unsubscribing', async () => {
    const target = uri(tree.path('watched.txt'));
    await session.client.subscribeResource({ uri: target });
    await appendFile(tree.path('watched.txt'), 'two\n');
    await session.waitForNotification('notifications/resources/updated', (p) => p?.uri === target);

    await session.client.unsubscribeResource({ uri: target });
    const seen = updates(session, target).length;
    await appendFile(tree.path('watched.txt'), 'three\n');
    await sleep(600);
    expect(updates(session, target)).toHaveLength(seen);
  });

  it('do not fire for a file that was not subscribed', async () => {
    await session.client.subscribeResource({ uri: uri(tree.path('watched.txt')) });
    await writeFile(tree.path('other.txt'), 'changed\n');
    await sleep(600);
    expect(session.notifications.filter((n) => n.method === 'notifications/resources/updated')).toEqual([]);
  });

  it('fire for a subscribed directory when a file is added in it', async () => {
    const target = uri(tree.path('dir'));
    await session.client.subscribeResource({ uri: target });
    await writeFile(tree.path('dir', 'added.txt'), 'new\n');
    await session.waitForNotification('notifications/resources/updated', (p) => p?.uri === target);
  });

  it('fire when the file is replaced by an atomic rename, and keep firing afterwards', async () => {
    const target = uri(tree.path('watched.txt'));
    await session.client.subscribeResource({ uri: target });
    await session.ok('write_file', { path: tree.path('watched.txt'), content: 'rewritten\n' });
    await session.waitForNotification('notifications/resources/updated', (p) => p?.uri === target);
    await sleep(300);
    const seen = updates(session, target).length;
    // The watch follows the name, not the replaced inode.
    await appendFile(tree.path('watched.txt'), 'appended\n');
    await session.waitForNotification('notifications/resources/updated', () => updates(session, target).length > seen);
  });

  it('watch only subscribed paths: 0 -> 1 -> 0', async () => {
    const target = uri(tree.path('watched.txt'));
    expect(session.server.watchedCount()).toBe(0);
    await session.ok('list_directory', { path: tree.dir });
    await session.client.listResources();
    expect(session.server.watchedCount()).toBe(0);
    await session.client.subscribeResource({ uri: target });
    expect(session.server.watchedCount()).toBe(1);
    await session.client.subscribeResource({ uri: target });
    expect(session.server.watchedCount()).toBe(1);
    await session.client.unsubscribeResource({ uri: target });
    expect(session.server.watchedCount()).toBe(0);
  });

  it('stop watching when the client disconnects', async () => {
    await session.client.subscribeResource({ uri: uri(tree.path('watched.txt')) });
    expect(session.server.watchedCount()).toBe(1);
    await session.client.close();
    await sleep(50);
    expect(session.server.watchedCount()).toBe(0);
  });
});

// A watcher is shared by the sessions subscribed to its URI; each session is checked
// against its own roots, so none hears of changes to a file outside them.
describe('subscriptions across sessions of one server', () => {
  it('do not tell a session about a file outside its roots because another session watches it', async () => {
    const server = createFilesystemServer({ dirs: [tree.dir], logLevel: 'error' });
    const owner = await connectInMemory(server, { roots: [{ uri: uri(tree.dir) }] });
    const narrow = await connectInMemory(server, { roots: [{ uri: uri(tree.path('dir')) }] });
    try {
      const target = uri(tree.path('watched.txt'));
      await owner.client.subscribeResource({ uri: target });
      await narrow.client.subscribeResource({ uri: target });
      await appendFile(tree.path('watched.txt'), 'changed\n');
      await owner.waitForNotification('notifications/resources/updated', (p) => p?.uri === target);
      await sleep(300);
      expect(narrow.notifications.filter((n) => n.method === 'notifications/resources/updated')).toEqual([]);
    } finally {
      await owner.close();
      await narrow.close();
      await server.close();
    }
  });

  it('stop telling a session about a file once its roots no longer include it', async () => {
    const server = createFilesystemServer({ dirs: [tree.dir], logLevel: 'error' });
    const session = await connectInMemory(server, { roots: [{ uri: uri(tree.dir) }] });
    try {
      const target = uri(tree.path('watched.txt'));
      await session.client.subscribeResource({ uri: target });
      expect(server.watchedCount()).toBe(1);
      await session.setRoots([{ uri: uri(tree.path('dir')) }]);
      await session.waitForNotification('notifications/resources/list_changed');
      await vi.waitFor(() => expect(server.watchedCount()).toBe(0), { timeout: 5_000 });
      const before = session.notifications.length;
      await appendFile(tree.path('watched.txt'), 'changed after narrowing\n');
      await sleep(400);
      expect(session.notifications.slice(before).filter((n) => n.method === 'notifications/resources/updated')).toEqual([]);
    } finally {
      await session.close();
      await server.close();
    }
  });
});
