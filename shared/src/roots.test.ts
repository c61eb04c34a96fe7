import { describe, it, expect, afterEach, beforeAll, afterAll } from 'vitest';
import { mkdtemp, mkdir, rm, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { directorySet, isWithinPath, mapConcurrently, narrowScopes, rootPaths } from './roots.js';
import { createServer, type SessionInfo } from './server.js';
import { defineResourceTemplate, definitionsFor } from './definitions.js';
import { silentLogger } from './logging.js';
import { connectInMemory, type Connection } from './client/index.js';

describe('directorySet', () => {
  // The rule it must agree with: isWithinPath's, under either platform's path rules.
  const within = (rules: path.PlatformPath) => (parent: string, child: string) => {
    const relative = rules.relative(parent, child);
    return relative === '' || (!(relative === '..' || relative.startsWith(`..${rules.sep}`)) && !rules.isAbsolute(relative));
  };
  const posixDirs = ['/srv/data', '/srv/data/inner', '/', '/home/me/x', '/home/me/x', '/srv/data-evil', '/opt/a b/c'];
  const posixPaths = ['/srv/data', '/srv/data/', '/srv/data/f.txt', '/srv/data/inner/deep/f', '/srv/datafile', '/srv/data-evil/x', '/srv/dat', '/home/me', '/home/me/x/../y', '/opt/a b/c/d', '/tmp'];
  const winDirs = ['C:\\Users\\Me\\Proj', 'c:\\users\\me\\proj\\sub', 'D:\\', '\\\\server\\share\\dir', 'C:\\Data-evil'];
  const winPaths = ['C:\\USERS\\me\\proj\\f.txt', 'C:\\Users\\Me\\Projects', 'c:\\users\\me\\proj\\SUB\\x', 'D:\\anything\\here', 'E:\\x', '\\\\server\\share\\dir\\f', '\\\\server\\share\\other', 'C:\\Data', 'C:\\Data-evil\\x'];

  for (const [name, rules, dirLists, paths] of [
    ['posix', path.posix, [posixDirs, posixDirs.slice(3), posixDirs.slice(0, 2).reverse(), []], posixPaths],
    ['win32', path.win32, [winDirs, winDirs.slice(1), [...winDirs].reverse()], winPaths],
  ] as const) {
    it(`agrees with isWithinPath on every path and directory list (${name})`, () => {
      const inside = within(rules);
      for (const dirs of dirLists) {
        const set = directorySet(dirs, rules);
        for (const p of [...paths, ...dirs]) {
          expect(set.holds(p), `${p} in ${dirs.join(' ')}`).toBe(dirs.some((dir) => inside(dir, p)));
          expect(set.holderOf(p), `${p} in ${dirs.join(' ')}`).toBe(dirs.find((dir) => inside(dir, p)));
          // Walking up from p with dirname, the levels still inside.
          let levels = -1;
          for (let up = rules.resolve(p), level = 0; dirs.some((dir) => inside(dir, up)); up = rules.dirname(up), level++) {
            levels = level;
            if (rules.dirname(up) === up) break;
          }
          expect(set.levelsInside(p), `levels of ${p} in ${dirs.join(' ')}`).toBe(levels);
        }
        const outer = dirs.filter((dir, i) => !dirs.some((other, j) => j !== i && other !== dir && inside(other, dir)));
        expect(set.outermost()).toEqual(outer);
      }
    });
  }

  it('costs the depth of a path, not the number of directories', () => {
    // 50,000 directories and 50,000 checks: with a scan of the list per check, 2.5e9 steps.
    const dirs = Array.from({ length: 50_000 }, (_, i) => `/roots/r${i}/x`);
    const set = directorySet(dirs, path.posix);
    let held = 0;
    for (let i = 0; i < dirs.length; i++) if (set.holds(`/roots/r${i}/x/y/z.txt`)) held++;
    expect(held).toBe(dirs.length);
    expect(set.outermost().length).toBe(dirs.length);
    expect(set.holds('/roots/r50000/x')).toBe(false);
  });

  it('costs the length of a path, not its depth times its length', { timeout: 10_000 }, () => {
    // Walking up with dirname made a check of a path 20,000 levels deep cost 20,000 copies of
    // it, and the filesystem checks each level of a path that does not exist: 3,000 levels
    // held its event loop for 18 s.
    const set = directorySet(['/srv/data', '/srv/data/a/a'], path.posix);
    const deep = `/srv/data/${'a/'.repeat(20_000)}f`;
    for (let i = 0; i < 200; i++) expect(set.holderOf(deep)).toBe('/srv/data');
    expect(set.holds(`/srv/other/${'a/'.repeat(20_000)}f`)).toBe(false);
  });

  it('names the first ten directories in a message, then how many more', () => {
    expect(directorySet(['/a', '/b']).describe(' or ')).toBe('/a or /b');
    const many = directorySet(Array.from({ length: 12_345 }, (_, i) => `/d${i}`));
    expect(many.describe(', ')).toBe(`${Array.from({ length: 10 }, (_, i) => `/d${i}`).join(', ')} (and 12,335 more)`);
  });
});

describe('mapConcurrently', () => {
  it('keeps the order of the items and runs at most `limit` at a time', async () => {
    let running = 0;
    let most = 0;
    const out = await mapConcurrently(Array.from({ length: 50 }, (_, i) => i), 4, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, (n * 7) % 5));
      running--;
      return n * 2;
    });
    expect(out).toEqual(Array.from({ length: 50 }, (_, i) => i * 2));
    expect(most).toBe(4);
    expect(await mapConcurrently([], 4, async () => 1)).toEqual([]);
  });
});

describe('narrowScopes', () => {
  const cases: { name: string; ceiling: string[]; roots: string[] | undefined; granted: string[] }[] = [
    { name: 'ceiling only (client has no roots)', ceiling: ['/data', '/srv'], roots: undefined, granted: ['/data', '/srv'] },
    { name: 'ceiling only (client sent an empty list)', ceiling: ['/data'], roots: [], granted: ['/data'] },
    { name: 'roots only', ceiling: [], roots: ['/home/u/a', '/home/u/b'], granted: ['/home/u/a', '/home/u/b'] },
    { name: 'neither', ceiling: [], roots: undefined, granted: [] },
    { name: 'roots inside the ceiling narrow it', ceiling: ['/data'], roots: ['/data/a', '/data/b/c'], granted: ['/data/a', '/data/b/c'] },
    { name: 'a root equal to the ceiling grants it', ceiling: ['/data'], roots: ['/data'], granted: ['/data'] },
    { name: 'a root containing a ceiling dir grants only that dir', ceiling: ['/data/x', '/srv'], roots: ['/data'], granted: ['/data/x'] },
    { name: 'a root at / grants exactly the ceiling', ceiling: ['/data', '/srv'], roots: ['/'], granted: ['/data', '/srv'] },
    { name: 'roots outside the ceiling grant nothing', ceiling: ['/data'], roots: ['/etc', '/home'], granted: [] },
    { name: '/data-evil is not inside /data', ceiling: ['/data'], roots: ['/data-evil'], granted: [] },
    { name: '/data is not inside /data-evil', ceiling: ['/data-evil'], roots: ['/data'], granted: [] },
    { name: 'a mix keeps only what lies inside', ceiling: ['/data'], roots: ['/data/in', '/elsewhere', '/data-evil/x'], granted: ['/data/in'] },
    { name: 'duplicates collapse', ceiling: ['/data', '/data'], roots: ['/data/a', '/data/a'], granted: ['/data/a'] },
  ];
  it.each(cases)('$name', ({ ceiling, roots, granted }) => {
    expect(narrowScopes(ceiling, roots)).toEqual(granted);
  });

  it('uses the containment rule it is given (e.g. repositories)', () => {
    const sameOrChild = (parent: string, child: string) => child === parent || child.startsWith(`${parent}#`);
    expect(narrowScopes(['repo'], ['repo#branch'], sameOrChild)).toEqual(['repo#branch']);
    expect(narrowScopes(['repo'], ['repo2'], sameOrChild)).toEqual([]);
  });
});

describe('isWithinPath and rootPaths', () => {
  it('compares whole path segments', () => {
    expect(isWithinPath('/data', '/data')).toBe(true);
    expect(isWithinPath('/data', '/data/x/y')).toBe(true);
    expect(isWithinPath('/data', '/data-evil')).toBe(false);
    expect(isWithinPath('/data', '/data/../etc')).toBe(false);
    expect(isWithinPath('/data', '/')).toBe(false);
  });

  it('treats an entry named "..x" as inside its directory (only ".." as a whole segment leaves)', () => {
    expect(isWithinPath('/data', '/data/..x')).toBe(true);
    expect(isWithinPath('/data', '/data/..x/y')).toBe(true);
    expect(isWithinPath('/data/a', '/data/..')).toBe(false);
    expect(narrowScopes(['/data'], ['/data/..hidden'])).toEqual(['/data/..hidden']);
  });

  it('keeps the local paths of file:// roots and drops the rest', () => {
    expect(rootPaths(undefined)).toBeUndefined();
    expect(
      rootPaths([
        { uri: 'file:///tmp/a%20b' },
        { uri: 'https://example.com/x' },
        { uri: 'file://remote-host/share' },
        { uri: 'file:///tmp/c/', name: 'c' },
      ]),
    ).toEqual(['/tmp/a b', '/tmp/c']);
  });
});

describe('client roots through a session', () => {
  let base: string;
  let ceiling: string;
  let inside: string;
  let outside: string;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'roots-test-')));
    ceiling = path.join(base, 'ceiling');
    inside = path.join(ceiling, 'project');
    outside = path.join(base, 'elsewhere');
    for (const dir of [inside, outside]) await mkdir(dir, { recursive: true });
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const rootOf = (dir: string) => ({ uri: pathToFileURL(dir).href, name: path.basename(dir) });

  /** A server whose tool reports what its context sees of the session's roots. */
  function rootsServer(options: { useRoots?: boolean } = {}) {
    interface Ext {
      session: SessionInfo;
    }
    const { defineTool } = definitionsFor<Ext>();
    const rootsChanged: string[] = [];
    const server = createServer<Ext>({
      name: 'roots',
      version: '1.0.0',
      logger: silentLogger,
      useRoots: options.useRoots,
      context: (session) => ({ session }),
      onRootsChanged: (session) => rootsChanged.push(session.id),
      templates: [defineResourceTemplate({ uriTemplate: 'file://{+path}', name: 'file', read: (uri) => [{ uri, text: '' }] })],
      tools: [
        defineTool({
          name: 'where',
          description: 'What the server may touch',
          input: z.object({}),
          output: z.object({
            roots: z.array(z.string()).nullable(),
            granted: z.array(z.string()),
            version: z.number(),
          }),
          async handler(_args, ctx) {
            const roots = await ctx.session.roots();
            return ctx.result({
              roots: roots ? roots.map((r) => r.uri) : null,
              granted: narrowScopes([ceiling], rootPaths(roots)),
              version: ctx.session.rootsVersion,
            });
          },
        }),
      ],
    });
    cleanups.push(() => server.close());
    return { server, rootsChanged };
  }

  async function where(connection: Connection) {
    const result = await connection.client.callTool({ name: 'where', arguments: {} });
    return result.structuredContent as { roots: string[] | null; granted: string[]; version: number };
  }

  async function connect(server: ReturnType<typeof rootsServer>['server'], roots?: { uri: string; name?: string }[]) {
    const connection = await connectInMemory(server, roots ? { roots } : {});
    cleanups.push(() => connection.close());
    return connection;
  }

  it("gives the server's context the client's roots, narrowed by the ceiling", async () => {
    const { server } = rootsServer();
    const connection = await connect(server, [rootOf(inside)]);
    // Asked when the tool first needs them: the first roots are version 0.
    expect(await where(connection)).toEqual({ roots: [rootOf(inside).uri], granted: [inside], version: 0 });
  });

  it('re-asks after roots/list_changed: the version grows and resources/list_changed is sent', async () => {
    const { server, rootsChanged } = rootsServer();
    const connection = await connect(server, [rootOf(inside)]);
    const before = await where(connection);
    expect(connection.notifications.some((n) => n.method === 'notifications/resources/list_changed')).toBe(false);

    await connection.setRoots([rootOf(outside)]);
    await connection.waitForNotification('notifications/resources/list_changed');
    const after = await where(connection);
    expect(after.roots).toEqual([rootOf(outside).uri]);
    expect(after.granted).toEqual([]); // every root outside the ceiling: nothing granted
    expect(after.version).toBeGreaterThan(before.version);
    expect(rootsChanged).toHaveLength(1);

    await connection.setRoots([rootOf(base)]);
    await connection.waitForNotification('notifications/resources/list_changed', () =>
      connection.notifications.filter((n) => n.method === 'notifications/resources/list_changed').length === 2,
    );
    const wider = await where(connection);
    expect(wider.granted).toEqual([ceiling]); // a root around the ceiling grants only the ceiling
    expect(wider.version).toBeGreaterThan(after.version);
    expect(rootsChanged).toHaveLength(2);
  });

  it('keeps each session to its own roots', async () => {
    const { server } = rootsServer();
    const a = await connect(server, [rootOf(inside)]);
    const b = await connect(server, [rootOf(outside)]);
    expect((await where(a)).roots).toEqual([rootOf(inside).uri]);
    expect((await where(b)).roots).toEqual([rootOf(outside).uri]);
    await b.setRoots([rootOf(ceiling)]);
    await b.waitForNotification('notifications/resources/list_changed');
    expect((await where(a)).roots).toEqual([rootOf(inside).uri]);
    expect(a.notifications.some((n) => n.method === 'notifications/resources/list_changed')).toBe(false);
  });

  it('reports no roots for a client without the capability, so the ceiling applies', async () => {
    const { server } = rootsServer();
    const connection = await connect(server);
    expect(await where(connection)).toEqual({ roots: null, granted: [ceiling], version: 0 });
  });

  it('does not use roots when the server turns them off', async () => {
    const { server } = rootsServer({ useRoots: false });
    const connection = await connect(server, [rootOf(inside)]);
    expect((await where(connection)).roots).toBeNull();
    await connection.setRoots([rootOf(outside)]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(connection.notifications.some((n) => n.method === 'notifications/resources/list_changed')).toBe(false);
  });
});
