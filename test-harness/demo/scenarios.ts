import { writeFile } from 'node:fs/promises';
import { makeTempTree, manyFiles, type TempTree } from '../src/fixtures/temp-tree.js';
import { startHttpFixture } from '../src/fixtures/http-server.js';
import { makeSqliteDb } from '../src/fixtures/sqlite-db.js';
import { makeGitRepo } from '../src/fixtures/git-repo.js';
import { realpath } from 'node:fs/promises';

/** What the demo does with one server: its fixture, one tool call, one completion, one change. */
export interface DemoScenario {
  /** Folder under servers/. */
  folder: string;
  setup(): Promise<{
    args: string[];
    call: { name: string; arguments: Record<string, unknown> };
    completion: { ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }; argument: { name: string; value: string } };
    /** The resource to subscribe to, or a pattern that picks it from the first page of resources/list. */
    subscribe: string | RegExp;
    change(): Promise<void>;
    cleanup(): Promise<void>;
  }>;
}

const notesFixture = () =>
  makeTempTree({
    'groceries.md': '# Groceries\n- milk\n- bread\n',
    'garden.md': '# Garden\nplant the tulips before the frost\n',
    'ideas.md': '# Ideas\nan MCP server for the garden sensors\n',
  });

const projectFixture = () =>
  makeTempTree({
    'README.md': '# Demo project\nA tiny project for the filesystem server tour.\n',
    src: {
      'main.ts': "import { greet } from './greet.js';\nconsole.log(greet('world'));\n",
      'greet.ts': 'export function greet(name: string) {\n  return `hello ${name}`;\n}\n',
    },
    docs: manyFiles(5, (i) => `note-${i}.md`, (i) => `# Note ${i}\nTODO: write note ${i}\n`),
    '.gitignore': 'build/\n',
    build: { 'out.js': 'ignored by .gitignore\n' },
  });

const dispose = (tree: TempTree) => () => tree.cleanup();

export const scenarios: DemoScenario[] = [
  {
    folder: '_template',
    async setup() {
      const tree = await notesFixture();
      return {
        args: [tree.dir],
        call: { name: 'search_notes', arguments: { query: 'garden' } },
        completion: { ref: { type: 'ref/resource', uri: 'note:///{name}' }, argument: { name: 'name', value: 'g' } },
        subscribe: 'note:///groceries',
        change: () => writeFile(tree.path('groceries.md'), '# Groceries\n- milk\n- bread\n- eggs\n'),
        cleanup: dispose(tree),
      };
    },
  },
  {
    folder: 'filesystem',
    async setup() {
      const tree = await projectFixture();
      return {
        args: [tree.dir],
        call: { name: 'grep_files', arguments: { path: tree.dir, pattern: 'TODO' } },
        completion: { ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value: `${tree.dir.slice(1)}/s` } },
        subscribe: `file://${tree.path('README.md')}`,
        change: () => writeFile(tree.path('README.md'), '# Demo project\nChanged while subscribed.\n'),
        cleanup: dispose(tree),
      };
    },
  },
  {
    folder: 'fetch',
    async setup() {
      // A local page (the demo never leaves 127.0.0.1), with the boilerplate real pages carry.
      let edition = 1;
      const site = await startHttpFixture({
        '/robots.txt': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /admin\n'),
        '/article': (_req, res) =>
          void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><title>Tulips</title>
<style>body { font: 14px serif }</style><script>track("pageview")</script></head><body>
<nav><a href="/">Home</a> <a href="/garden">Garden</a></nav>
<div class="cookie-banner">We use cookies. <button>OK</button></div>
<main><h1>Plant tulips before the frost</h1><p>Edition ${edition}. Tulip bulbs need a cold spell, so plant them in autumn, a hand deep, pointed end up.</p>
<h2>What you need</h2><ul><li>bulbs</li><li>a trowel</li><li>compost</li></ul>
<table><tr><th>Month</th><th>Task</th></tr><tr><td>October</td><td>plant</td></tr><tr><td>April</td><td>enjoy</td></tr></table></main>
<footer>© Garden Weekly · <a href="/privacy">Privacy</a></footer></body></html>`),
      });
      const url = `${site.origin}/article`;
      return {
        args: ['--allow-host', `127.0.0.1:${site.port}`, '--poll-interval-ms', '300'],
        call: { name: 'fetch', arguments: { url, max_length: 400 } },
        completion: { ref: { type: 'ref/resource', uri: 'fetch://page/{+url}' }, argument: { name: 'url', value: `${site.origin}/a` } },
        subscribe: `fetch://page/${url}`,
        change: async () => void (edition = 2),
        cleanup: site.close,
      };
    },
  },
  {
    folder: 'sqlite',
    async setup() {
      // A small shop; the change is another process (a separate connection) taking an order.
      const db = await makeSqliteDb(`
        CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
        CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL);
        INSERT INTO customers (name, city) VALUES ('Ada', 'London'), ('Grace', 'Arlington'), ('Linus', 'Helsinki');
        INSERT INTO orders (customer_id, total) VALUES (1, 42.5), (1, 12), (2, 99.9), (3, 5);
      `);
      return {
        args: ['--db-path', db.file],
        call: {
          name: 'read_query',
          arguments: {
            query: 'SELECT c.name, count(*) AS orders, sum(o.total) AS spent FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.total > ? GROUP BY c.id ORDER BY spent DESC',
            params: [10],
          },
        },
        completion: { ref: { type: 'ref/resource', uri: 'sqlite://table/{name}' }, argument: { name: 'name', value: 'c' } },
        subscribe: 'sqlite://table/orders',
        change: async () => db.exec('INSERT INTO orders (customer_id, total) VALUES (2, 17.5)'),
        cleanup: db.cleanup,
      };
    },
  },
  {
    folder: 'git',
    async setup() {
      // A small history on two branches; the change is a commit made by the git CLI, outside the server.
      const repo = await makeGitRepo([
        { message: 'Start the garden planner', files: { 'README.md': '# Garden planner\n', 'src/plan.ts': 'export const beds = 3;\n' } },
        { message: 'Plan the tulip bed', files: { 'src/tulips.ts': 'export const bulbs = 40;\n' } },
      ]);
      await repo.git('branch', 'feature/roses');
      const root = await realpath(repo.dir);
      return {
        args: ['--repository', root],
        call: { name: 'git_log', arguments: { repo_path: root, max_count: 5 } },
        completion: { ref: { type: 'ref/resource', uri: 'git://{repo}/branch/{+branch}' }, argument: { name: 'branch', value: 'fe' } },
        // The repository's id is the server's: its main branch is found in resources/list.
        subscribe: /^git:\/\/[^/]+\/branch\/main$/,
        change: async () => void (await repo.commit('Water the tulips', { 'src/tulips.ts': 'export const bulbs = 40;\nexport const water = true;\n' })),
        cleanup: repo.cleanup,
      };
    },
  },
];
