// The servers as a Windows user runs them: Windows Node (node.exe from npm) under Wine,
// started the way Claude Desktop starts them (Windows pipes, through relay.cjs), driven
// by a real client. Run with `pnpm test:windows` (needs Wine: apt-get install wine64).
// Wine maps the Unix root to drive Z:, and, like Windows, finds names in any case.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fsp, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitRepo, makeSqliteDb, makeTempTree, startHttpFixture, type Connection, type TempTree } from '@mcp-reference/test-harness';
import { connectWindows, findWine, prepareWindowsNode, repoRoot, win, type WindowsNode } from './setup.js';

type Result = { isError?: boolean; content?: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };

const textOf = (result: Result) => (result.content ?? []).map((c) => c.text ?? '').join('\n');

let node: WindowsNode;

beforeAll(() => {
  const wine = findWine();
  if (wine === undefined) throw new Error('Wine is not installed: apt-get install wine64 (Debian), then run pnpm test:windows again.');
  node = prepareWindowsNode(wine);
  console.log(`Windows Node ${node.version} under ${wine}`);
});

async function call(c: Connection, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await c.client.callTool({ name, arguments: args })) as Result;
}

async function ok(c: Connection, name: string, args: Record<string, unknown>): Promise<Result> {
  const result = await call(c, name, args);
  expect(result.isError, `${name} ${JSON.stringify(args)}: ${textOf(result)}`).toBeFalsy();
  return result;
}

async function refused(c: Connection, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(c, name, args);
  expect(result.isError, `${name} ${JSON.stringify(args)} should be refused: ${textOf(result)}`).toBe(true);
  return textOf(result);
}

describe('filesystem', () => {
  let tree: TempTree;
  let c: Connection;
  let R: string; // the allowed directory as Windows sees it
  let home: string; // Wine's %USERPROFILE% on the Linux side
  const homeFile = `mcp-smoke-home-${process.pid}.txt`;

  beforeAll(async () => {
    tree = await makeTempTree({
      root: { 'crlf.txt': 'one\r\ntwo\r\nthree\r\n', 'a.txt': 'alpha\n', Notes: { 'n.txt': 'note\n' }, sub: { 'b.txt': 'beta\n' } },
      outside: { 'secret.txt': 'secret\n' },
    });
    R = win(tree.path('root'));
    home = path.join(node.env.WINEPREFIX, 'drive_c', 'users', os.userInfo().username);
    await fsp.writeFile(path.join(home, homeFile), 'home\n');
    // The home directory is allowed too, so that "~\..." has somewhere to lead.
    c = await connectWindows(node, 'filesystem', [R, 'C:\\users\\' + os.userInfo().username]);
  });

  afterAll(async () => {
    await c?.close();
    await fsp.rm(path.join(home, homeFile), { force: true }).catch(() => undefined);
    await tree?.cleanup();
  });

  it('reads every spelling of a path', async () => {
    const drive = R.slice(0, 2);
    const rest = R.slice(2);
    const spellings = [
      `${R}\\a.txt`,
      `${R.toLowerCase()}\\A.TXT`,
      `${drive.toLowerCase()}${rest.toUpperCase()}\\a.txt`,
      `${R.replaceAll('\\', '/')}/a.txt`,
      `\\\\?\\${R}\\a.txt`,
      `\\\\.\\${R}\\a.txt`,
      `file:///${R.replaceAll('\\', '/')}/a.txt`,
      'a.txt',
      'sub\\..\\a.txt',
      `${rest}\\a.txt`, // no drive: the current one (Z:)
    ];
    for (const spelling of spellings) {
      const result = await ok(c, 'read_text_file', { path: spelling });
      expect(result.structuredContent?.content, spelling).toBe('alpha\n');
    }
  });

  it('expands ~\\ and ~/ to the home directory', async () => {
    for (const spelling of [`~\\${homeFile}`, `~/${homeFile}`]) {
      expect((await ok(c, 'read_text_file', { path: spelling })).structuredContent?.content, spelling).toBe('home\n');
    }
  });

  it('refuses every escape, and writes nothing outside', async () => {
    const O = win(tree.path('outside'));
    const before = readdirSync(tree.path('outside'));
    const reads = [
      `${O}\\secret.txt`,
      `${O.toUpperCase()}\\SECRET.TXT`,
      `${R}\\..\\outside\\secret.txt`,
      '..\\outside\\secret.txt',
      '../outside/secret.txt',
      `\\\\?\\${O}\\secret.txt`,
      `\\\\.\\${O}\\secret.txt`,
      `file:///${O.replaceAll('\\', '/')}/secret.txt`,
      `${R}\\..\\OUTSIDE\\secret.txt`,
      'C:\\windows\\win.ini',
      '\\\\localhost\\C$\\windows\\win.ini',
    ];
    for (const spelling of reads) expect(await refused(c, 'read_text_file', { path: spelling }), spelling).toMatch(/outside the allowed directories|Access denied|not|invalid/i);
    for (const spelling of [`${O}\\marker.txt`, '..\\outside\\marker.txt', `\\\\?\\${O}\\marker.txt`]) {
      await refused(c, 'write_file', { path: spelling, content: 'x' });
    }
    expect(readdirSync(tree.path('outside'))).toEqual(before);
    expect(readFileSync(tree.path('outside', 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  it('says which drive a drive-less path was taken on', async () => {
    const message = await refused(c, 'read_text_file', { path: `${win(tree.path('outside')).slice(2)}\\secret.txt` });
    expect(message).toMatch(/without a drive letter, taken on the current drive Z:/);
  });

  it('matches a regex and a glob on a worker thread (re2js over the base worker channel, which git_grep uses too)', async () => {
    const grep = await ok(c, 'grep_files', { path: R, pattern: '(a|b|.)*ph', include: ['*.txt'] });
    const matches = grep.structuredContent?.matches as { path: string; line: number; text: string }[];
    expect(matches.map((m) => [m.path, m.line, m.text])).toEqual([[`${R}\\a.txt`, 1, 'alpha']]);
    const search = await ok(c, 'search_files', { path: R, pattern: '**/?.txt' });
    expect(JSON.stringify(search.structuredContent)).toContain('b.txt');
  });

  it('keeps CRLF line endings on edits', async () => {
    await ok(c, 'edit_file', { path: `${R}\\crlf.txt`, edits: [{ oldText: 'two', newText: 'TWO' }] });
    expect(readFileSync(tree.path('root', 'crlf.txt'), 'utf8')).toBe('one\r\nTWO\r\nthree\r\n');
  });

  it('completes the file template from nothing, keeping the drive letter, and from "Z:/..." in any case', async () => {
    const uriTemplate = 'file:///{+path}';
    const complete = async (value: string) =>
      (await c.client.complete({ ref: { type: 'ref/resource', uri: uriTemplate }, argument: { name: 'path', value } })).completion.values;
    const R_ = R.replaceAll('\\', '/');
    expect(await complete('')).toContain(`${R_}/`);
    expect(await complete(`${R_}/s`)).toEqual([`${R_}/sub/`]);
    expect(await complete(`${R_.toLowerCase()}/NO`)).toEqual([`${R_.toLowerCase()}/Notes/`]);
  });

  it('completes prompt paths past a trailing "\\", in any case, with "\\" separators', async () => {
    const complete = async (value: string) =>
      (await c.client.complete({ ref: { type: 'ref/prompt', name: 'summarize_file' }, argument: { name: 'path', value } })).completion.values;
    expect(await complete(`${R}\\`)).toEqual([`${R}\\a.txt`, `${R}\\crlf.txt`, `${R}\\Notes\\`, `${R}\\sub\\`].sort());
    expect(await complete(`${R}\\notes\\`)).toEqual([`${R}\\notes\\n.txt`]);
    expect(await complete(`${R}/SU`)).toEqual([`${R}\\sub\\`]);
  });

  it('renames a file and a directory by case only, and refuses a copy onto the same file without asking', async () => {
    await fsp.writeFile(tree.path('root', 'new.txt'), 'new\n');
    await ok(c, 'move_file', { source: `${R}\\new.txt`, destination: `${R}\\NEW.txt` });
    expect(readdirSync(tree.path('root'))).toContain('NEW.txt');
    expect(readdirSync(tree.path('root'))).not.toContain('new.txt');
    expect(readFileSync(tree.path('root', 'NEW.txt'), 'utf8')).toBe('new\n');
    await ok(c, 'move_file', { source: `${R}\\sub`, destination: `${R}\\Sub` });
    expect(readdirSync(tree.path('root'))).toContain('Sub');
    expect(readFileSync(tree.path('root', 'Sub', 'b.txt'), 'utf8')).toBe('beta\n');
    const message = await refused(c, 'copy_file', { source: `${R}\\NEW.txt`, destination: `${R}\\new.TXT` });
    expect(message).toMatch(/itself/);
    expect(message).not.toMatch(/Replace/);
    expect(readdirSync(tree.path('root')).filter((n) => n.toLowerCase() === 'new.txt')).toEqual(['NEW.txt']);
  });

  it('says a file held open by another program is in use, and leaves it and no temporary file behind', async () => {
    const held = tree.path('root', 'held.txt');
    await fsp.writeFile(held, 'original\n');
    const ready = tree.path('ready');
    const release = tree.path('release');
    const holder = spawn(node.wine, [node.nodeExe, path.join(repoRoot, 'test-harness', 'windows', 'hold-open.cjs'), win(held), win(ready), win(release)], {
      env: { ...process.env, ...node.env },
      stdio: 'ignore',
    });
    try {
      for (let i = 0; i < 600 && !existsSync(ready); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(existsSync(ready), 'the holder opened the file').toBe(true);
      const message = await refused(c, 'write_file', { path: `${R}\\held.txt`, content: 'new\n' });
      expect(message).toMatch(/in use by another program/);
      expect(message).not.toMatch(/\(permissions\)/);
      expect(readFileSync(held, 'utf8')).toBe('original\n');
      expect(readdirSync(tree.path('root')).filter((name) => name.includes('held'))).toEqual(['held.txt']);
    } finally {
      await fsp.writeFile(release, '');
      await new Promise((resolve) => (holder.exitCode === null ? holder.once('exit', resolve) : resolve(undefined)));
    }
    // Let go of, it is written as usual.
    await ok(c, 'write_file', { path: `${R}\\held.txt`, content: 'new\n' });
    expect(readFileSync(held, 'utf8')).toBe('new\n');
  });

  it('fires a subscription when a file changes', async () => {
    const uri = `file:///${R.replaceAll('\\', '/')}/a.txt`;
    await c.client.subscribeResource({ uri });
    // Changed from the Linux side, as another program would.
    for (let attempt = 0; attempt < 20; attempt++) {
      await fsp.writeFile(tree.path('root', 'a.txt'), `alpha ${attempt}\n`);
      const fired = await c.waitForNotification('notifications/resources/updated', (p) => p?.uri === uri, 3_000).then(() => true, () => false);
      if (fired) return;
    }
    throw new Error(`no notifications/resources/updated for ${uri}`);
  });
});

describe('git', () => {
  it('says clearly that git cannot be run where there is no git.exe, or serves a repository where there is', async () => {
    const repo = await makeGitRepo([{ message: 'first', files: { 'a.txt': 'a\n' } }]);
    const c = await connectWindows(node, 'git', ['--repository', win(repo.dir)]);
    try {
      const result = await call(c, 'git_log', { repo_path: win(repo.dir) });
      if (result.isError) {
        // Wine runs Windows programs only; the Linux git is not one.
        expect(textOf(result)).toMatch(/Could not run git: .*Is git installed and on PATH\?/);
        console.log('git: no git.exe under Wine; checked the message a missing git.exe gives, not git itself');
      } else {
        expect(textOf(result)).toContain('first');
      }
    } finally {
      await c.close();
      await repo.cleanup();
    }
  });

  it('refuses a work-tree path on another drive, outside, or in .git in any case', async () => {
    const repo = await makeGitRepo([{ message: 'first', files: { 'a.txt': 'a\n' } }]);
    const c = await connectWindows(node, 'git', ['--repository', win(repo.dir)]);
    try {
      // Checked before git is run, so this holds with or without git.exe.
      for (const outside of ['C:\\windows\\win.ini', 'c:/windows/win.ini', `${win(repo.dir)}\\..\\x`]) {
        expect(await refused(c, 'git_log', { repo_path: win(repo.dir), path: outside }), outside).toMatch(/outside the repository's work tree/);
      }
      expect(await refused(c, 'git_log', { repo_path: win(repo.dir), path: `${win(repo.dir)}\\.GIT\\config` })).toMatch(/inside \.git/);
    } finally {
      await c.close();
      await repo.cleanup();
    }
  });
});

describe('sqlite', () => {
  // As Claude Desktop installs it: the MCPB bundle `pnpm bundle` builds on this machine,
  // unpacked. Its addon is this platform's build; a Linux one cannot load under Windows.
  let bundleDir = '';
  let cli = '';
  let addon = '';

  beforeAll(async () => {
    bundleDir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'windows-smoke-mcpb-')));
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'mcpb.mjs'), 'sqlite', '--out', bundleDir], { stdio: 'ignore' });
    const bundle = readdirSync(bundleDir).find((name) => name.endsWith('.mcpb'));
    const mcpb = path.join(path.dirname(createRequire(import.meta.url).resolve('@anthropic-ai/mcpb')), 'cli', 'cli.js');
    execFileSync(process.execPath, [mcpb, 'unpack', path.join(bundleDir, bundle!), path.join(bundleDir, 'unpacked')], { stdio: 'ignore' });
    cli = path.join(bundleDir, 'unpacked', 'dist', 'cli.js');
    addon = path.join(bundleDir, 'unpacked', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  }, 300_000);

  afterAll(async () => {
    if (bundleDir) await fsp.rm(bundleDir, { recursive: true, force: true });
  });

  it('queries a database with a win32 addon, or says in one line how to reinstall without one', async () => {
    const isWindowsAddon = readFileSync(addon).subarray(0, 2).toString('latin1') === 'MZ';
    const db = await makeSqliteDb("CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('grace');");
    const c = await connectWindows(node, cli, ['--db-path', win(db.file)]);
    try {
      const result = await call(c, 'read_query', { query: 'SELECT name FROM users' });
      if (isWindowsAddon) {
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(textOf(result)).toContain('grace');
      } else {
        console.log('sqlite: the bundle built here carries a Linux addon; checked the wrong-platform message, not queries');
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/native addon\) is missing or was built for another platform than this one \(win32-x64/);
        expect(textOf(result)).not.toContain('\n');
      }
    } finally {
      await c.close();
      await db.cleanup();
    }
  });
});

describe('fetch', () => {
  it('fetches a page from a local server', async () => {
    const site = await startHttpFixture({
      '/': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Smoke</title></head><body><p>It works on Windows.</p></body></html>'),
    });
    const c = await connectWindows(node, 'fetch', ['--allow-host', new URL(site.origin).host]);
    try {
      const result = await ok(c, 'fetch', { url: `${site.origin}/` });
      expect(textOf(result)).toContain('It works on Windows.');
    } finally {
      await c.close();
      await site.close();
    }
  });
});
