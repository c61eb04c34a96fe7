// Figures on the generated tree and the 1 GB file. Each operation gets fresh server
// processes (so a crash or a memory peak stays with its operation), and ours, the official
// server and the command-line baseline (`find`, `grep -rn`) take turns run by run.
import { commandRunner, interleave, serverRunner } from './interleave.js';
import type { Maker, Timed } from './interleave.js';
import { countItems } from './servers.js';
import type { Launch, ToolSet } from './servers.js';
import type { StdioServer, ToolCallResult } from './stdio-driver.js';
import type { Sample } from './stats.js';
import { GREP_TOKEN } from './tree.js';

/** The search_files pattern (minimatch on the path relative to `path`) and its find twin. */
export const SEARCH_GLOB = '**/*.md';
export const FIND_NAME = '*.md';

const TREE_TIMEOUT_MS = 600_000;
const MAX_PAGES = 10_000;

export interface Fixture {
  treeDir: string;
  bigDir: string;
  bigFile: string;
}

/** A filesystem server to measure, with how its tools are called. */
export type Contender = { launch: Launch; tools: ToolSet } | { unavailable: string };

export interface TreeSamples {
  search: { ours: Sample; official: Sample; find: Sample };
  tree: { ours: Sample; official: Sample; find: Sample };
  grep: { ours: Sample; grep: Sample };
  head: { ours: Sample; official: Sample };
  tail: { ours: Sample; official: Sample };
}

function maker(
  c: Contender,
  pick: (tools: ToolSet) => { name: string } | undefined,
  op: (server: StdioServer, tools: ToolSet) => Promise<Timed>,
): Maker {
  if ('unavailable' in c) return c;
  const tool = pick(c.tools);
  if (!tool) return { unavailable: 'this server has no such tool' };
  return () => serverRunner(c.launch, tool.name, (server) => op(server, c.tools));
}

/** Calls a tool page by page, following its cursor, and adds up what each page cost; `onPage` sees each answer. */
export async function allPages(
  server: StdioServer,
  name: string,
  args: (cursor: string | undefined) => Record<string, unknown>,
  nextCursor: (result: ToolCallResult) => string | undefined,
  onPage?: (result: ToolCallResult) => void,
) {
  const total = { ms: 0, pages: 0, totalBytes: 0, largestResponseBytes: 0, items: 0, truncated: false };
  let cursor: string | undefined;
  do {
    const reply = await server.callTool(name, args(cursor), TREE_TIMEOUT_MS);
    total.ms += reply.ms;
    total.pages++;
    total.totalBytes += reply.bytes;
    total.largestResponseBytes = Math.max(total.largestResponseBytes, reply.bytes);
    total.items += countItems(reply.tool);
    onPage?.(reply.tool);
    // A server that caps without offering a cursor says so; then the answer is incomplete.
    total.truncated ||= reply.tool.structuredContent?.truncated === true && !nextCursor(reply.tool);
    cursor = nextCursor(reply.tool);
  } while (cursor && total.pages < MAX_PAGES);
  return total;
}

/** Every match, following cursors when the server pages its results. */
async function search(server: StdioServer, tools: ToolSet, fx: Fixture): Promise<Timed> {
  const { name, args, nextCursor } = tools.searchFiles;
  const { ms, pages, totalBytes, items } = await allPages(server, name, (cursor) => args(fx.treeDir, SEARCH_GLOB, cursor), nextCursor);
  return { ms, extra: { responseBytes: totalBytes, matches: items, pages } };
}

/** The whole tree, following cursors when the server pages it. */
async function tree(server: StdioServer, tools: ToolSet, fx: Fixture): Promise<Timed> {
  const { name, args, nextCursor } = tools.directoryTree;
  const { ms, pages, totalBytes, largestResponseBytes, truncated } = await allPages(server, name, (cursor) => args(fx.treeDir, cursor), nextCursor);
  return { ms, extra: { pages, totalBytes, largestResponseBytes, truncated } };
}

async function grep(server: StdioServer, tools: ToolSet, fx: Fixture): Promise<Timed> {
  const { name, args } = tools.grepFiles!;
  const reply = await server.callTool(name, args(fx.treeDir, GREP_TOKEN), TREE_TIMEOUT_MS);
  return { ms: reply.ms, extra: { responseBytes: reply.bytes, matches: countItems(reply.tool) } };
}

/** head or tail of the 1 GB file; a reply without the expected line is an error. */
function readEnd(which: 'head' | 'tail', fx: Fixture) {
  const expect = which === 'head' ? 'line 1:' : 'line 1000019:';
  return async (server: StdioServer, tools: ToolSet): Promise<Timed> => {
    const { name, args } = tools[which];
    const reply = await server.callTool(name, args(fx.bigFile, 10), 60_000);
    const text = (reply.tool.content?.find((c) => c.type === 'text')?.text ?? '') + JSON.stringify(reply.tool.structuredContent ?? {});
    if (!text.includes(expect)) throw new Error(`${which}: unexpected content ${JSON.stringify(text.slice(0, 120))}`);
    return { ms: reply.ms, extra: { responseBytes: reply.bytes } };
  };
}

export async function measureTree(
  ours: Contender,
  official: Contender,
  fx: Fixture,
  runs: number,
  calls: number,
  log: (msg: string) => void,
): Promise<TreeSamples> {
  const both = (pick: Parameters<typeof maker>[1], op: Parameters<typeof maker>[2]) => [
    maker(ours, pick, op),
    maker(official, pick, op),
  ];
  log(`  search_files ${SEARCH_GLOB} / find -name '${FIND_NAME}'...`);
  const s = await interleave(
    [...both((t) => t.searchFiles, (srv, t) => search(srv, t, fx)), () => commandRunner('find', [fx.treeDir, '-name', FIND_NAME])],
    { runs },
  );
  log('  directory_tree / find...');
  const t = await interleave(
    [...both((t) => t.directoryTree, (srv, t) => tree(srv, t, fx)), () => commandRunner('find', [fx.treeDir])],
    { runs },
  );
  log(`  grep_files / grep -rn ${GREP_TOKEN}...`);
  const g = await interleave(
    [maker(ours, (t) => t.grepFiles, (srv, t) => grep(srv, t, fx)), () => commandRunner('grep', ['-rn', GREP_TOKEN, fx.treeDir])],
    { runs },
  );
  log(`  read_text_file head/tail 10 on the 1 GB file (${calls} calls)...`);
  const h = await interleave(both((t) => t.head, readEnd('head', fx)), { runs: calls, warmups: 20, summarize: true });
  const tl = await interleave(both((t) => t.tail, readEnd('tail', fx)), { runs: calls, warmups: 20, summarize: true });
  return {
    search: { ours: s[0], official: s[1], find: s[2] },
    tree: { ours: t[0], official: t[1], find: t[2] },
    grep: { ours: g[0], grep: g[1] },
    head: { ours: h[0], official: h[1] },
    tail: { ours: tl[0], official: tl[1] },
  };
}
