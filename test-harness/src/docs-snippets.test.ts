import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { codeBlocks, configEntries, docFiles, LaunchChecker, readmeSnippets, shellCommands } from './packaging-docs.js';
import { repoRoot, serverPackages } from './packaging.js';

/**
 * The docs are true word for word: every JSON block parses, and every client config and
 * command in docs/, the READMEs and CONTRIBUTING.md names a server folder that exists, its
 * real package or built bin, and flags that bin accepts (read from its --help). A doc that
 * names a server whose folder is gone fails here, so it gets trimmed with the server.
 */
describe('docs snippets', () => {
  const checker = new LaunchChecker();
  const files = docFiles();

  it.each(files.map((f) => [path.relative(repoRoot, f), f]))('%s: every JSON block parses and every server entry is real', async (_rel, file) => {
    const problems: string[] = [];
    for (const block of codeBlocks(file).filter((b) => b.lang === 'json')) {
      let entries;
      try {
        entries = configEntries(block);
      } catch (error) {
        problems.push(`${path.relative(repoRoot, file)}:${block.line}: ${(error as Error).message}`);
        continue;
      }
      for (const { where, key, server } of entries) {
        if (!server) continue;
        if (server.type !== undefined && !['stdio', 'http'].includes(server.type)) problems.push(`${where} ${key}: type ${server.type}`);
        if (server.url !== undefined) {
          problems.push(...checker.checkUrl(key, server.url).map((p) => `${where} ${key}: ${p}`));
          continue;
        }
        if (!server.command) {
          problems.push(`${where} ${key}: neither command nor url`);
          continue;
        }
        problems.push(...(await checker.check(server.command, server.args ?? [])).map((p) => `${where} ${key}: ${p}`));
      }
    }
    for (const { where, words } of shellCommands(file)) {
      problems.push(...(await checker.checkShell(words)).map((p) => `${where}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  it('names, in docs/, the root README and CONTRIBUTING.md, only packages and bins of server folders that exist', () => {
    const shorts = new Set(serverPackages().map((s) => s.short));
    // Other people's packages the docs name as baselines (the benchmark's peers), not ours.
    const peers = new Set(['sqlite-npx']);
    const problems: string[] = [];
    for (const file of [path.join(repoRoot, 'README.md'), path.join(repoRoot, 'CONTRIBUTING.md'), ...docFiles().filter((f) => f.startsWith(path.join(repoRoot, 'docs')))]) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(/@mcp-reference\/server-([a-z0-9-]+)|(?<![\w/-])mcp-server-([a-z0-9-]+)/g)) {
            const short = m[1] ?? m[2];
            if (!shorts.has(short) && !(m[2] && peers.has(short))) problems.push(`${path.relative(repoRoot, file)}:${i + 1}: ${m[0]} (servers/${short} absent?)`);
          }
        });
    }
    expect(problems).toEqual([]);
  });

  it('catches a snippet that names a missing server, an unknown flag or a flag without its value', async () => {
    const [server] = serverPackages();
    expect(await checker.check('npx', ['-y', '@mcp-reference/server-no-such-thing'])).toEqual([
      expect.stringContaining('servers/no-such-thing absent'),
    ]);
    expect(await checker.check('npx', ['-y', server.pkg.name, '--no-such-flag'])).toEqual([`${server.pkg.name}: unknown flag --no-such-flag`]);
    expect(await checker.check('npx', ['-y', server.pkg.name, '--port'])).toEqual([`${server.pkg.name}: --port needs a value`]);
    expect(await checker.check('npx', [server.pkg.name])).toEqual([expect.stringContaining('-y')]);
    expect(await checker.check('node', ['/x/servers/nope/dist/cli.js'])).toEqual([expect.stringContaining('no such servers/* folder')]);
    expect(await checker.checkShell(['claude', 'mcp', 'add', '--transport', 'http', 'nope', 'http://127.0.0.1:3000/mcp'])).toEqual([
      expect.stringContaining('servers/nope absent'),
    ]);
    expect(checker.checkUrl(server.short, 'http://example.com:3000/mcp')).toEqual([expect.stringContaining('not a loopback')]);
  });

  it.each(serverPackages().map((s) => [s.folder, s] as const))(
    '%s README starts with the Claude Desktop entry (npx and local build) and where the config file lives',
    (_folder, s) => {
      const file = path.join(s.dir, 'README.md');
      const entries = readmeSnippets(file);
      const npx = entries.find((e) => e.server?.command === 'npx');
      const local = entries.find((e) => e.server?.command === 'node');
      expect(npx?.server?.args?.slice(0, 2), 'npx form').toEqual(['-y', s.pkg.name]);
      expect(local?.server?.args?.[0], 'local-build form').toMatch(new RegExp(`servers/${s.folder}/dist/cli\\.js$`));
      const readme = readFileSync(file, 'utf8');
      const head = readme.slice(0, readme.indexOf('\n## ') === -1 ? undefined : readme.indexOf('\n## '));
      for (const place of [
        '~/Library/Application Support/Claude/claude_desktop_config.json',
        '%APPDATA%\\Claude\\claude_desktop_config.json',
        '~/.config/Claude/claude_desktop_config.json',
      ]) {
        expect(head, `${s.folder}/README.md names ${place} before its first section`).toContain(place);
      }
      // The first block of the README is the npx config entry.
      expect(codeBlocks(file)[0].text).toContain(s.pkg.name);
    },
  );
});
