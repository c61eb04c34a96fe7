// ui://git/log and ui://git/diff in a real Chromium behind the double-iframe sandbox,
// driven by the built mcp-server-git over stdio on real repositories.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectStdio, type Connection } from '@mcp-reference/shared/client';
import { makeGitRepo, gitFixtureEnv, type GitRepo } from '../src/fixtures/git-repo.js';
import { APPS_CLIENT, compareWithGolden, openView, startAppsHost, type AppsHost, type ViewSession } from './harness.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../servers/git/dist/cli.js');
const HOSTILE_SUBJECT = `Merge <img src=x onerror="window.__pwned='commit'"> <script>window.__pwned=2</script> feature`;
const BIG_LINES = 5000;
const big = (change: boolean) =>
  Array.from({ length: BIG_LINES }, (_, i) => (change && i % 10 === 0 ? `export const line${i} = ${i} * 2; // changed` : `export const line${i} = ${i};`)).join('\n') + '\n';

/** A repository of `count` commits on main with a merged side branch every 50, made in one git fast-import. */
function fastImport(dir: string, count: number): Promise<void> {
  const parts: string[] = [];
  let mark = 0;
  const commit = (branch: string, message: string, from: number | undefined, merge?: number) => {
    mark++;
    const data = Buffer.byteLength(message);
    parts.push(
      `commit refs/heads/${branch}\nmark :${mark}\ncommitter Test <test@example.invalid> ${1_700_000_000 + mark * 60} +0000\ndata ${data}\n${message}\n` +
        (from ? `from :${from}\n` : '') +
        (merge ? `merge :${merge}\n` : '') +
        `M 644 inline file${mark % 7}.txt\ndata ${String(mark).length}\n${mark}\n`,
    );
    return mark;
  };
  let main = commit('main', 'commit 1', undefined);
  let made = 1;
  while (made < count) {
    if (made % 50 === 0 && made + 4 <= count) {
      let side = commit(`side${made}`, `side ${made} a`, main);
      side = commit(`side${made}`, `side ${made} b`, side);
      main = commit('main', `main ${made}`, main);
      main = commit('main', `merge side ${made}`, main, side);
      made += 4;
    } else {
      main = commit('main', `commit ${made + 1}`, main);
      made++;
    }
  }
  return new Promise((resolve, reject) => {
    const child = execFile('git', ['fast-import', '--quiet'], { cwd: dir, env: gitFixtureEnv() }, (error) => (error ? reject(error) : resolve()));
    child.stdin!.end(parts.join(''));
  });
}

describe('git log and diff views in Chromium', () => {
  let host: AppsHost;
  let repo: GitRepo;
  let many: GitRepo;
  let connection: Connection;
  const sessions: ViewSession[] = [];
  const shas: Record<string, string> = {};
  const open = async (tool: string, args: Record<string, unknown>) => {
    const session = await openView(host, connection, { tool, arguments: args });
    sessions.push(session);
    return session;
  };

  beforeAll(async () => {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (pnpm build)`);
    repo = await makeGitRepo();
    // Fixed, increasing dates make fixed commit ids (the goldens are the same on every run)
    // and a log in the order the commits were made.
    let minute = 0;
    const at = (...args: string[]) =>
      new Promise<string>((resolve, reject) => {
        const date = `2026-01-02T03:${String(minute++).padStart(2, '0')}:00Z`;
        const env = { ...gitFixtureEnv(), GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
        execFile('git', args, { cwd: repo.dir, env }, (error, stdout) => (error ? reject(error) : resolve(stdout.trim())));
      });
    const commit = async (message: string, files: Record<string, string>) => {
      for (const [name, content] of Object.entries(files)) await writeFile(repo.path(name), content);
      await at('add', '--', ...Object.keys(files));
      await at('commit', '-q', '-m', message);
      return at('rev-parse', 'HEAD');
    };
    shas.initial = await commit('initial', { 'a.ts': 'const a = 1;\n', 'big.ts': big(false) });
    shas.second = await commit('second: add b', { 'b.ts': 'const b = 2;\n' });
    await at('tag', 'v1.0');
    await at('checkout', '-q', '-b', 'feature');
    shas.f1 = await commit('feature one', { 'f.ts': 'export const f = 1;\n' });
    shas.f2 = await commit('feature two', { 'f.ts': 'export const f = 2;\n' });
    await at('checkout', '-q', 'main');
    shas.third = await commit('third: c and a', { 'c.ts': 'const c = 3;\n', 'a.ts': 'const a = 10;\n' });
    await at('merge', '-q', '--no-ff', '-m', HOSTILE_SUBJECT, 'feature');
    shas.big = await commit('big change', { 'big.ts': big(true) });
    many = await makeGitRepo();
    await fastImport(many.dir, 1000);
    [host, connection] = await Promise.all([
      startAppsHost(),
      connectStdio('node', [bin, '--repository', repo.dir, '--repository', many.dir], APPS_CLIENT),
    ]);
  }, 120_000);
  afterAll(async () => {
    for (const session of sessions) await session.close();
    await host?.close();
    await connection?.close();
    await repo?.cleanup();
    await many?.cleanup();
  });

  it('draws the log with lanes, refs and authors; the hostile subject is text', async () => {
    const session = await open('git_log', { repo_path: repo.dir, max_count: 50 });
    console.log(`git log: first paint of data ${session.paintMs.toFixed(1)} ms after the tool result`);
    const log = session.view.locator('#log');
    await expect.poll(() => log.locator('.row').count()).toBe(7);
    expect(await log.locator('.row .subject').allTextContents()).toEqual([
      'big change',
      HOSTILE_SUBJECT,
      'third: c and a',
      'feature two',
      'feature one',
      'second: add b',
      'initial',
    ]);
    expect(await log.locator('circle').count()).toBe(7);
    // The merge opens a second lane: the graph is wider than one lane.
    expect(Number(await log.locator('svg').getAttribute('width'))).toBeGreaterThan(14 + 8);
    await expect.poll(() => log.locator(`.row[data-commit="${shas.big}"] .ref`).allTextContents()).toEqual(['HEAD', 'main']);
    expect(await log.locator(`.row[data-commit="${shas.second}"] .ref`).allTextContents()).toEqual(['v1.0']);
    expect(await log.locator(`.row[data-commit="${shas.f2}"] .ref`).allTextContents()).toEqual(['feature']);
    expect(await log.locator('.row .author').first().textContent()).toBe('Test');
    expect(await log.locator('img, script').count()).toBe(0);
    expect(await session.pwned()).toBeUndefined();
    const { ratio } = await compareWithGolden(await session.frame.screenshot({ animations: 'disabled' }), 'git-log-light');
    console.log(`git log golden: ${(ratio * 100).toFixed(2)}% of pixels differ`);
  });

  it('opens the diff of a clicked commit, unified and split', async () => {
    const session = sessions[0];
    await session.view.locator(`.row[data-commit="${shas.third}"]`).click();
    const diff = session.view.locator('#diff');
    await expect.poll(() => diff.locator('tr.add td.src').allTextContents()).toEqual(['+const a = 10;', '+const c = 3;']);
    expect(await diff.locator('tr.del td.src').allTextContents()).toEqual(['-const a = 1;']);
    expect(await diff.locator('tr.hunk').allTextContents()).toEqual(['@@ -1 +1 @@', '@@ -0,0 +1 @@']);
    await session.view.locator('#mode').click();
    await expect.poll(() => diff.locator('table.diff.split').count()).toBe(1);
    expect(await diff.locator('td.src.del').allTextContents()).toEqual(['const a = 1;']);
    expect(await diff.locator('td.src.add').allTextContents()).toEqual(['const a = 10;', 'const c = 3;']);
  });

  it('pages a 5,000-line commit diff by hunk, in the order git_commit_diff gives', async () => {
    const session = await open('git_show', { repo_path: repo.dir, revision: shas.big });
    console.log(`git diff (${BIG_LINES}-line file, ${BIG_LINES / 10} hunks): first hunk page painted ${session.paintMs.toFixed(1)} ms after the tool result`);
    await expect.poll(() => session.view.locator('#hunk-count').textContent()).toBe('50 of 500 hunks');
    expect(await session.view.locator('#commit strong').textContent()).toBe('big change');
    const page = (await connection.client.callTool({ name: 'git_commit_diff', arguments: { repo: repo.dir, rev: shas.big, offset: 50 } })) as unknown as {
      structuredContent: { hunks: { header: string }[]; next_offset: number; total_hunks: number };
    };
    expect(page.structuredContent).toMatchObject({ next_offset: 100, total_hunks: 500 });
    await session.view.locator('#more-hunks').click();
    await expect.poll(() => session.view.locator('#hunk-count').textContent()).toBe('100 of 500 hunks');
    const headers = await session.view.locator('tr.hunk').allTextContents();
    expect(headers.slice(50)).toEqual(page.structuredContent.hunks.map((h) => h.header));
  });

  it('shows git_show of a merge with a hostile message as text, and a work-tree diff', async () => {
    const merge = await repo.git('rev-parse', 'HEAD~1');
    const show = await open('git_show', { repo_path: repo.dir, revision: merge });
    await expect.poll(() => show.view.locator('#commit strong').textContent()).toBe(HOSTILE_SUBJECT);
    expect(await show.view.locator('#commit img, #commit script').count()).toBe(0);
    expect(await show.pwned()).toBeUndefined();
    await writeFile(repo.path('c.ts'), 'const c = 4;\n');
    const unstaged = await open('git_diff_unstaged', { repo_path: repo.dir });
    await expect.poll(() => unstaged.view.locator('tr.add td.src').allTextContents()).toEqual(['+const c = 4;']);
    await unstaged.view.locator('#mode').click();
    const { ratio } = await compareWithGolden(await unstaged.frame.screenshot({ animations: 'disabled' }), 'git-diff-split');
    console.log(`git diff golden: ${(ratio * 100).toFixed(2)}% of pixels differ`);
  });

  it('draws 1,000 commits with lanes for merges', async () => {
    const session = await open('git_log', { repo_path: many.dir, max_count: 1000 });
    console.log(`git log: 1,000 commits with lanes painted ${session.paintMs.toFixed(1)} ms after the tool result`);
    await expect.poll(() => session.view.locator('#count').textContent()).toBe('1000 commits');
    expect(await session.view.locator('#log circle').count()).toBe(1000);
    // Lanes are drawn, merges (curves) among them.
    expect(await session.view.locator('#log path').evaluateAll((paths) => paths.map((p) => p.getAttribute('d')).join(''))).toMatch(/C/);
  });

  it('had no console error, CSP violation, outbound request or script from any commit', async () => {
    expect(sessions.length).toBeGreaterThan(0);
    for (const session of sessions) {
      expect(session.consoleErrors).toEqual([]);
      expect(await session.violations()).toEqual([]);
      expect(session.outbound).toEqual([]);
      expect(await session.pwned()).toBeUndefined();
      expect(await session.refusedCalls()).toEqual([]);
    }
  });
});
