// Issue 13 item 2: CPU-heavy matching (a catastrophic regular expression, a glob that
// backtracks) never blocks the event loop: a ping is answered while it runs, and
// cancellation and session end stop it, so no core stays busy afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { connectStdio, makeTempTree, spawnHttpServer, type TempTree } from '@mcp-reference/test-harness';
import { bin, makeBigTree, open, refusal, sleep, type Session } from './test-support.js';

let tree: TempTree;
let session: Session;

// `(a+)+$` on 40 a's and a "!" takes longer than anyone would wait; a backtracking engine
// cannot be interrupted on the event loop.
const EVIL_LINE = `${'a'.repeat(40)}!`;
// A name on which `*a*a*a*a*b` backtracks for seconds (10 s measured).
const EVIL_NAME = 'a'.repeat(200);

beforeAll(async () => {
  tree = await makeTempTree({
    'evil.txt': `${EVIL_LINE}\n`,
    'long-line.txt': `${'x'.repeat(128 * 1024)}\n`,
    names: { [EVIL_NAME]: 'x', [`${'a'.repeat(40)}`]: 'y' },
  });
  session = await open({ dirs: [tree.dir] });
});

afterAll(async () => {
  await session?.close();
  await tree?.cleanup();
});

/** CPU time (user + system, all threads of this process) spent during `ms`. */
async function cpuDuring(ms: number): Promise<number> {
  const start = process.cpuUsage();
  await sleep(ms);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * Starts a call, checks that a ping is answered while the call is still running, then
 * cancels the call (notifications/cancelled) and checks that the work stopped.
 */
async function expectPingWhileRunningThenCancel(name: string, args: Record<string, unknown>): Promise<void> {
  const controller = new AbortController();
  let settled = false;
  const call = session.client.callTool({ name, arguments: args }, undefined, { signal: controller.signal, timeout: 60_000 });
  let outcome: unknown;
  call.then(
    (result) => ((settled = true), (outcome = result)),
    (error) => ((settled = true), (outcome = error)),
  );
  await sleep(100); // the call is under way
  await session.client.ping();
  expect(settled, `${name} finished before the ping was answered (${JSON.stringify(outcome)})`).toBe(false);
  controller.abort(new Error('cancelled by the test'));
  await expect(call).rejects.toThrow('cancelled by the test');
  await sleep(100); // the cancellation notification reaches the server
  // Nothing keeps a core busy after the cancellation.
  expect(await cpuDuring(500)).toBeLessThan(250);
  // And the session still works.
  expect((await session.ok<{ directories: string[] }>('list_allowed_directories', {})).directories).toEqual([tree.dir]);
}

describe('CPU-heavy matching runs off the event loop and stops when cancelled', () => {
  it('grep_files with (a+)+$ on a 40-character line', async () => {
    await expectPingWhileRunningThenCancel('grep_files', { path: tree.path('evil.txt'), pattern: '(a+)+$' });
  });

  it('grep_files with .*zzz on a 128 KB line', async () => {
    await expectPingWhileRunningThenCancel('grep_files', { path: tree.path('long-line.txt'), pattern: '.*zzz' });
  });

  it('grep_files with a backreference that never ends', async () => {
    await expectPingWhileRunningThenCancel('grep_files', { path: tree.path('evil.txt'), pattern: '(a*)*\\1b' });
  });

  it('search_files with a glob that backtracks on a long name', async () => {
    await expectPingWhileRunningThenCancel('search_files', { path: tree.path('names'), pattern: '*a*a*a*a*b' });
  });

  it('search_files with the extglob @(a+)+b on a 40-character name', async () => {
    await expectPingWhileRunningThenCancel('search_files', { path: tree.path('names'), pattern: '@(a+)+b' });
  });

  it('search_files still finds names with a glob matched in the worker', async () => {
    const out = await session.ok<{ matches: { path: string }[] }>('search_files', { path: tree.path('names'), pattern: '*a*a*a*' });
    expect(out.matches.map((m) => m.path).sort()).toEqual([tree.path('names', 'a'.repeat(40)), tree.path('names', EVIL_NAME)].sort());
  });

  it.each([
    ['search_files', { pattern: '*.txt', excludePatterns: ['@(a+)+b'] }],
    ['grep_files', { pattern: 'x', exclude: ['@(a+)+b'] }],
    ['directory_tree', { excludePatterns: ['@(a+)+b'] }],
    ['search_files', { pattern: '*.txt', excludePatterns: ['*a*a*a*a*b'] }],
  ] as const)('%s refuses an exclude glob that could backtrack (%j), at once', async (name, args) => {
    const message = await refusal(session, name, { path: tree.path('names'), ...args });
    expect(message).toMatch(/is refused: .*Use a simpler glob/);
  });
});

describe('session end stops the work', () => {
  it('20 abandoned grep_files calls over 20,000 files stop when the session closes', async () => {
    const big = await makeBigTree(20, 1_000);
    const other = await open({ dirs: [big.dir] });
    try {
      const calls = Array.from({ length: 20 }, () =>
        other.client.callTool({ name: 'grep_files', arguments: { path: '.', pattern: '(x+)+y', respect_gitignore: false } }).catch(() => undefined),
      );
      await sleep(200);
      await other.close();
      await Promise.all(calls);
      await sleep(200);
      expect(await cpuDuring(500)).toBeLessThan(250);
    } finally {
      await other.close();
      await big.cleanup();
    }
  }, 60_000);

  it('a catastrophic grep stops when its session closes', async () => {
    const dir = await makeTempTree({ 'evil.txt': `${EVIL_LINE}\n` });
    const other = await open({ dirs: [dir.dir] });
    try {
      void other.client.callTool({ name: 'grep_files', arguments: { path: 'evil.txt', pattern: '(a+)+$' } }).catch(() => undefined);
      await sleep(200);
      await other.close();
      await sleep(200);
      expect(await cpuDuring(500)).toBeLessThan(250);
    } finally {
      await other.close();
      await dir.cleanup();
    }
  });
});

describe('the published bundle', () => {
  // The worker runs the source text of a function: a bundler that rewrites `require` (or
  // anything else the function uses) breaks it, and only the bundle shows that.
  it('greps and matches globs in its worker', async () => {
    const stdio = await connectStdio(process.execPath, [bin, tree.dir]);
    try {
      const grep = await stdio.client.callTool({ name: 'grep_files', arguments: { path: 'evil.txt', pattern: 'a+!' } });
      expect(grep.isError).toBeFalsy();
      expect((grep.structuredContent as { matches: { line: number }[] }).matches.map((m) => m.line)).toEqual([1]);
      const search = await stdio.client.callTool({ name: 'search_files', arguments: { path: 'names', pattern: '*a*a*a*' } });
      expect(search.isError).toBeFalsy();
      expect((search.structuredContent as { matches: unknown[] }).matches).toHaveLength(2);
    } finally {
      await stdio.close();
    }
  });
});

/** CPU time (user + system, ms) a process has used so far, from /proc. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

describe.runIf(process.platform === 'linux')('dropped HTTP connections', () => {
  it('20 grep_files calls over 20,000 files whose clients hang up stop using the CPU', async () => {
    // Every line backtracks for a long time, so each call would run for minutes.
    const big = await makeBigTree(20, 1_000, () => `${'x'.repeat(24)}!\n`);
    const server = await spawnHttpServer(bin, [big.dir]);
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const post = (body: object, extra: Record<string, string> = {}, signal?: AbortSignal) =>
      fetch(server.url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body), signal });
    try {
      const init = await post({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'dropper', version: '0' } },
      });
      const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
      await init.text();
      await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
      const drop = new AbortController();
      const calls = Array.from({ length: 20 }, (_, i) =>
        post(
          { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'grep_files', arguments: { path: '.', pattern: '(x+)+y' } } },
          session,
          drop.signal,
        )
          .then((response) => response.text())
          .catch(() => undefined),
      );
      await sleep(1_000);
      const pid = server.child.pid!;
      const busy = cpuOf(pid);
      await sleep(1_000);
      expect(cpuOf(pid) - busy, 'the calls were not running').toBeGreaterThan(100);
      drop.abort(); // the client hangs up on every call
      await Promise.all(calls);
      // Within 5 s (a busy CI machine schedules late), a half second passes nearly idle.
      const windows: number[] = [];
      for (let i = 0; i < 10 && !(windows.at(-1)! < 100); i++) {
        const before = cpuOf(pid);
        await sleep(500);
        windows.push(cpuOf(pid) - before);
      }
      expect(windows.at(-1), `CPU ms per 500 ms after the drop: ${windows.join(', ')}`).toBeLessThan(100);
      // And the server still answers.
      const ping = await post({ jsonrpc: '2.0', id: 99, method: 'ping' }, session);
      expect(await ping.text()).toContain('"id":99');
    } finally {
      await server.close();
      await big.cleanup();
    }
  }, 60_000);
});
