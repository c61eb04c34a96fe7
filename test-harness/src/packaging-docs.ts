// Reads the client configurations and commands the docs show (JSON config blocks and
// shell lines) and checks each against the server it names: a real package or built bin,
// and flags that bin accepts. Used by docs-snippets.test.ts and the publish test.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cliShape, checkArgs, repoRoot, serverPackages, type CliShape, type ServerPackage } from './packaging.js';

export interface CodeBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  text: string;
}

export function codeBlocks(file: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++) body.push(lines[j]);
    blocks.push({ file, line: i + 1, lang: open[2], text: body.join('\n') });
    i = j;
  }
  return blocks;
}

export interface ServerEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  type?: string;
  url?: string;
  headers?: Record<string, string>;
}

export interface ConfigSnippet {
  where: string;
  /** The key of the entry (`filesystem`). */
  key: string;
  server?: ServerEntry;
}

/** Every server entry of the JSON config blocks (`mcpServers` or VS Code's `servers`). */
export function configEntries(block: CodeBlock): ConfigSnippet[] {
  const json = JSON.parse(block.text) as { mcpServers?: Record<string, ServerEntry>; servers?: Record<string, ServerEntry> };
  const table = json.mcpServers ?? json.servers ?? {};
  return Object.entries(table).map(([key, server]) => ({ where: `${relative(repoRoot, block.file)}:${block.line}`, key, server }));
}

export function readmeSnippets(file: string): ConfigSnippet[] {
  return codeBlocks(file)
    .filter((b) => b.lang === 'json')
    .flatMap((b) => configEntries(b));
}

/** A shell line split into words (quotes removed; no expansion). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]);
  return words;
}

export interface ShellCommand {
  where: string;
  words: string[];
}

/** The lines of sh blocks that run a server: `npx -y @mcp-reference/...`, `node .../dist/cli.js`, `claude mcp add`. */
export function shellCommands(file: string): ShellCommand[] {
  const out: ShellCommand[] = [];
  for (const block of codeBlocks(file).filter((b) => ['sh', 'bash', 'shell', 'console'].includes(b.lang))) {
    block.text.split('\n').forEach((raw, index) => {
      const line = raw.replace(/^\$\s+/, '').replace(/\s+#.*$/, '').trim();
      if (!/(^|\s)(npx -y @mcp-reference\/|node \S*servers\/[^/\s]+\/dist\/cli\.js|claude mcp add)/.test(line)) return;
      out.push({ where: `${relative(repoRoot, file)}:${block.line + 1 + index}`, words: shellWords(line) });
    });
  }
  return out;
}

/** The Markdown files whose snippets must hold: docs/, the root and server READMEs, CONTRIBUTING.md. */
export function docFiles(root = repoRoot): string[] {
  const files = ['README.md', 'CONTRIBUTING.md'].map((f) => join(root, f)).filter((f) => existsSync(f));
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.md')) files.push(join(dir, e.name));
    }
  };
  walk(join(root, 'docs'));
  for (const s of serverPackages(root)) files.push(join(s.dir, 'README.md'));
  return files.filter((f) => existsSync(f));
}

/** Checks launches: a command and its arguments, as a client would spawn them. */
export class LaunchChecker {
  private shapes = new Map<string, Promise<CliShape>>();
  constructor(private readonly servers: ServerPackage[] = serverPackages()) {}

  private shape(server: ServerPackage): Promise<CliShape> {
    let shape = this.shapes.get(server.folder);
    if (!shape) this.shapes.set(server.folder, (shape = cliShape(server.binPath)));
    return shape;
  }

  /** The server a launch names: a package after `npx -y`, or a checkout's dist/cli.js after `node`. */
  resolve(command: string, args: readonly string[]): { server?: ServerPackage; rest: string[]; problem?: string } {
    if (command === 'npx') {
      if (args[0] !== '-y') return { rest: [], problem: 'npx needs -y first (a client cannot answer the install prompt)' };
      const name = args[1] ?? '';
      const server = this.servers.find((s) => s.pkg.name === name);
      if (!server) {
        const folder = name.replace(/^@mcp-reference\/server-/, '');
        return { rest: [], problem: `names ${name}, but no servers/* folder holds that package (servers/${folder} absent?)` };
      }
      return { server, rest: args.slice(2) };
    }
    if (command === 'node') {
      const m = /servers\/([^/]+)\/dist\/cli\.js$/.exec(args[0] ?? '');
      const server = m && this.servers.find((s) => s.folder === m[1]);
      if (!server) return { rest: [], problem: `names ${args[0]}, but no such servers/* folder` };
      return { server, rest: args.slice(1) };
    }
    return { rest: [], problem: `unknown command ${command} (expected npx or node)` };
  }

  /** The problems of one launch (empty when it names a real server with flags it accepts). */
  async check(command: string, args: readonly string[]): Promise<string[]> {
    const { server, rest, problem } = this.resolve(command, args);
    if (!server) return [problem!];
    if (!existsSync(server.binPath)) return [`${server.folder} is not built (run pnpm build)`];
    return checkArgs(rest, await this.shape(server)).map((p) => `${server.pkg.name}: ${p}`);
  }

  /** Problems of a Streamable HTTP entry: a loopback /mcp URL and a key naming a server that exists. */
  checkUrl(key: string, url: string): string[] {
    const problems: string[] = [];
    const parsed = new URL(url);
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) problems.push(`${url} is not a loopback address`);
    if (parsed.pathname !== '/mcp') problems.push(`${url} does not end in /mcp`);
    if (!this.servers.some((s) => s.short === key || s.folder === key)) problems.push(`entry "${key}" names no server folder (servers/${key} absent?)`);
    return problems;
  }

  /** Problems of a shell line: an npx/node launch, or `claude mcp add`. */
  async checkShell(words: readonly string[]): Promise<string[]> {
    // The launch is the last `node .../servers/X/dist/cli.js` or `npx -y @mcp-reference/...`
    // on the line (the Inspector puts it after its own options and `--`).
    const launches = words
      .map((w, i) => (w === 'node' && /servers\/[^/]+\/dist\/cli\.js$/.test(words[i + 1] ?? '')) || (w === 'npx' && /^@mcp-reference\//.test(words[i + 2] ?? '')) ? i : -1)
      .filter((i) => i !== -1);
    const at = words[0] === 'claude' ? 0 : (launches.at(-1) ?? words.findIndex((w) => w === 'npx' || w === 'node'));
    const command = words[at];
    if (command !== 'claude') {
      // A synopsis line shows optional parts in brackets: check the flags inside them.
      const args = words
        .slice(at + 1)
        .map((w) => w.replace(/^\[+/, '').replace(/\]+(\.\.\.)?$/, '').replace(/\.\.\.$/, ''))
        .filter((w) => w && w !== '|' && !/^[A-Z_]+\.\.\.$/.test(w));
      return this.check(command, args);
    }
    // claude mcp add [--transport T] [--scope S] [--env K=V] [--header H] NAME (-- COMMAND ARGS | URL)
    const rest = words.slice(at + 3);
    const dash = rest.indexOf('--');
    const options = dash === -1 ? rest : rest.slice(0, dash);
    let transport = 'stdio';
    const positionals: string[] = [];
    for (let i = 0; i < options.length; i++) {
      if (options[i] === '--transport' || options[i] === '-t') transport = options[++i];
      else if (['--scope', '-s', '--env', '-e', '--header', '-H'].includes(options[i])) i++;
      else if (options[i].startsWith('-')) return [`claude mcp add: unknown option ${options[i]}`];
      else positionals.push(options[i]);
    }
    if (transport === 'stdio') {
      if (dash === -1) return ['claude mcp add (stdio) needs -- COMMAND ARGS'];
      const launch = rest.slice(dash + 1);
      return this.check(launch[0], launch.slice(1));
    }
    if (transport !== 'http') return [`claude mcp add: transport ${transport} (expected stdio or http)`];
    const [name, url] = positionals;
    if (!url) return ['claude mcp add --transport http needs NAME URL'];
    return this.checkUrl(name, url);
  }
}

const SERVER_LIST = /(<!-- servers:start -->\n)([\s\S]*?)(<!-- servers:end -->)/;

/** The root README's table of servers: each folder's registry description (server.json), else package.json's. */
export function renderServerList(root = repoRoot): string {
  const servers = serverPackages(root).sort((a, b) => Number(a.folder.startsWith('_')) - Number(b.folder.startsWith('_')) || a.folder.localeCompare(b.folder));
  const rows = servers.map((s) => {
    const registry = join(s.dir, 'server.json');
    const what = existsSync(registry) ? (JSON.parse(readFileSync(registry, 'utf8')) as { description: string }).description : s.pkg.description;
    return `| [${s.folder}](servers/${s.folder}) | \`${s.pkg.name}\` | \`${s.binName}\` | ${what} |`;
  });
  return ['| Server | Package | Bin | What it does |', '| --- | --- | --- | --- |', ...rows, ''].join('\n');
}

/** The root README with its server list replaced (or undefined when it has no markers). */
export function withServerList(readme: string, list: string): string | undefined {
  if (!SERVER_LIST.test(readme)) return undefined;
  return readme.replace(SERVER_LIST, (_all, start, _old, end) => `${start}${list}${end}`);
}
