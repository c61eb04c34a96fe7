// Runs the pinned @modelcontextprotocol/conformance suite (see README.md beside this file)
// against one server of this repository over Streamable HTTP. Only spawns processes and
// speaks plain HTTP: nothing here imports the MCP SDK.
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { launchArgs } from '../src/launch-args.js';

const execFileAsync = promisify(execFile);

export type ScenarioStatus = 'PASS' | 'FAIL' | 'SKIP';

export interface ScenarioResult {
  scenario: string;
  status: ScenarioStatus;
  /** Why it failed or was skipped; for a pass, how many checks passed and any warnings. */
  detail: string;
  durationMs: number;
}

export interface ConformanceOptions {
  /** Run only these scenarios (others are reported as SKIP). */
  only?: string[];
  /** Per-scenario time limit for the conformance CLI, in ms. */
  scenarioTimeoutMs?: number;
  /** How long to wait for the server to listen, in ms. */
  startTimeoutMs?: number;
  /** Progress lines (server start, each scenario). */
  log?: (line: string) => void;
  /** Requirement sets to run (default: both). */
  revisions?: readonly Revision[];
}

/** A check as the conformance CLI writes it to checks.json. */
interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
  errorMessage?: string;
  description?: string;
}

type Capabilities = Record<string, unknown>;

interface Scenario {
  name: string;
  /** A capability the server must declare for the scenario to apply (path like `resources.subscribe`). */
  needs?: string;
}

/** The frozen requirement sets of the suite: each runs at its own wire version. */
export const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
export type Revision = (typeof REVISIONS)[number];

/** The folder of the private fixture server that implements the suite's own tools, resources and prompts. */
export const FIXTURE_SERVER = '_conformance';

/**
 * Scenarios that test generic server behaviour, per requirement set: they need none of
 * the suite's fixture tools, resources or prompts, so every server runs them.
 */
export const GENERIC: Readonly<Record<Revision, readonly Scenario[]>> = {
  '2025-11-25': [
    { name: 'server-initialize' },
    { name: 'ping' },
    { name: 'logging-set-level', needs: 'logging' },
    { name: 'tools-list', needs: 'tools' },
    { name: 'resources-list', needs: 'resources' },
    { name: 'resources-subscribe', needs: 'resources.subscribe' },
    { name: 'resources-unsubscribe', needs: 'resources.subscribe' },
    { name: 'prompts-list', needs: 'prompts' },
    { name: 'server-sse-multiple-streams' },
    { name: 'dns-rebinding-protection' },
  ],
  '2026-07-28': [
    { name: 'tools-list', needs: 'tools' },
    { name: 'resources-list', needs: 'resources' },
    { name: 'prompts-list', needs: 'prompts' },
    { name: 'server-sse-multiple-streams' },
    { name: 'dns-rebinding-protection' },
    { name: 'caching' },
    { name: 'sep-2164-resource-not-found', needs: 'resources' },
    { name: 'input-required-result-unsupported-methods' },
  ],
};

/**
 * Scored scenarios the fixture server does not implement yet, reported as SKIP. Empty:
 * the fixture runs every scored scenario of both sets. Kept so that a scenario a new
 * suite version adds can be parked here, with the reason in the commit that adds it.
 */
export const FIXTURE_TODO: ReadonlySet<string> = new Set<string>([]);

/** Kept for callers of the 2025-only runner: the generic scenarios of 2025-11-25. */
export const APPLICABLE = GENERIC['2025-11-25'];

/** The scored and not-scored server scenarios of one frozen requirement set. */
export interface RequirementSet {
  scored: string[];
  notScored: { scenario: string; reason: string }[];
}

/** Reads `requirements/<revision>.yaml` of the installed suite (its `server` list and `not_scored` server entries). */
export async function requirementSet(revision: Revision): Promise<RequirementSet> {
  const text = await readFile(join(dirname(conformanceCli()), '..', 'requirements', `${revision}.yaml`), 'utf8');
  const scored: string[] = [];
  const notScored: { scenario: string; reason: string }[] = [];
  let section = '';
  let entry: { scenario?: string; leg?: string; reason?: string } | undefined;
  const flush = () => {
    if (entry?.scenario && entry.leg === 'server') notScored.push({ scenario: entry.scenario, reason: entry.reason ?? '' });
    entry = undefined;
  };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trimEnd();
    if (!line.trim()) continue;
    const top = /^(\w[\w-]*):/.exec(line);
    if (top) {
      flush();
      section = top[1];
      continue;
    }
    if (section === 'server') {
      const item = /^\s+-\s+(\S+)/.exec(line);
      if (item) scored.push(item[1]);
    } else if (section === 'not_scored') {
      const field = /^\s+(-\s+)?(\w+):\s*(\S+)/.exec(line);
      if (!field) continue;
      if (field[1]) flush();
      entry ??= {};
      (entry as Record<string, string>)[field[2]] = field[3];
    }
  }
  flush();
  return { scored, notScored };
}

/** The repository root: the nearest parent of this module holding pnpm-workspace.yaml. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('conformance: cannot find the repository root (pnpm-workspace.yaml)');
    dir = up;
  }
}

/** Folders under servers/, sorted; with `builtOnly`, only those that have dist/cli.js. */
export function listServers(root = repoRoot(), builtOnly = false): string[] {
  const dir = join(root, 'servers');
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'package.json')))
    .map((e) => e.name)
    .filter((name) => !builtOnly || existsSync(join(dir, name, 'dist', 'cli.js')))
    .sort();
}

/** Path of the conformance CLI of the pinned package. */
function conformanceCli(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
}

const majorOf = (version: string): number => Number(version.replace(/^v/, '').split('.')[0]);

/**
 * A Node >= 22 binary for the conformance CLI (it uses fs.globSync). The running Node if it is
 * new enough; otherwise the registry package node-<platform>-<arch>@22, fetched once with
 * `npm pack` into node_modules/.cache/node22 and reused from there.
 */
export async function ensureNode22(root = repoRoot(), log: (line: string) => void = () => {}): Promise<string> {
  if (majorOf(process.versions.node) >= 22) return process.execPath;
  const cache = join(root, 'node_modules', '.cache', 'node22');
  const bin = join(cache, 'bin', 'node');
  if (existsSync(bin)) {
    try {
      const { stdout } = await execFileAsync(bin, ['--version']);
      if (majorOf(stdout.trim()) >= 22) return bin;
    } catch {
      // Broken cache: fetch again below.
    }
  }
  const pkg = `node-${process.platform}-${process.arch}@22`;
  log(`conformance: Node ${process.versions.node} is too old for the conformance CLI; fetching ${pkg} from the npm registry`);
  await mkdir(dirname(cache), { recursive: true });
  const work = await mkdtemp(join(dirname(cache), 'node22-fetch-'));
  try {
    const { stdout } = await execFileAsync('npm', ['pack', pkg, '--json', '--pack-destination', work], {
      cwd: work,
      maxBuffer: 64 * 1024 * 1024,
    });
    const packed = JSON.parse(stdout) as { filename: string }[];
    const tgz = join(work, packed[0].filename);
    await execFileAsync('tar', ['-xzf', tgz, '-C', work, 'package/bin/node']);
    const staged = join(work, 'package');
    await rm(cache, { recursive: true, force: true });
    try {
      await rename(staged, cache);
    } catch (err) {
      // Another run may have filled the cache at the same moment; keep its copy.
      if (!existsSync(bin)) throw err;
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const { stdout } = await execFileAsync(bin, ['--version']);
  log(`conformance: using ${bin} (${stdout.trim()})`);
  return bin;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((done) => {
    const sock = connect({ host: '127.0.0.1', port });
    sock.once('connect', () => {
      sock.destroy();
      done(true);
    });
    sock.once('error', () => done(false));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface RunningServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

async function startServer(serverDir: string, args: string[], timeoutMs: number): Promise<RunningServer> {
  const cli = join(serverDir, 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} does not exist: build the server first (pnpm build)`);
  const port = await freePort();
  const child = spawn(process.execPath, [cli, '--http', '--port', String(port), ...args], {
    cwd: serverDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: string | undefined;
  const exitedPromise = new Promise<void>((r) =>
    child.once('exit', (code, signal) => {
      exited = `exited with ${signal ?? `code ${code}`}`;
      r();
    }),
  );
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exitedPromise;
    clearTimeout(killer);
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`server ${exited} before listening on port ${port}:\n${out}`);
    if (await canConnect(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not listen on 127.0.0.1:${port} within ${timeoutMs} ms:\n${out}`);
    }
    await sleep(100);
  }
  return { url: `http://127.0.0.1:${port}/mcp`, child, output: () => out, stop };
}

/**
 * Sends one initialize over plain HTTP and returns the server's capabilities (to decide which
 * capability-dependent scenarios apply), or undefined if the handshake fails.
 */
async function probeCapabilities(url: string): Promise<Capabilities | undefined> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'conformance-runner-probe', version: '1.0.0' },
        },
      }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) return undefined;
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    const payloads = type.includes('text/event-stream')
      ? text
          .split(/\r?\n/)
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trim())
      : [text];
    const session = res.headers.get('mcp-session-id');
    if (session) {
      await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session } }).catch(() => undefined);
    }
    for (const p of payloads) {
      try {
        const msg = JSON.parse(p) as { id?: unknown; result?: { capabilities?: Capabilities } };
        if (msg.id === 1 && msg.result?.capabilities) return msg.result.capabilities;
      } catch {
        // Not JSON: keep looking.
      }
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function hasCapability(caps: Capabilities, path: string): boolean {
  let cur: unknown = caps;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(key in cur)) return false;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur !== undefined && cur !== false && cur !== null;
}

async function runScenario(
  node: string,
  cli: string,
  url: string,
  scenario: string,
  revision: Revision,
  timeoutMs: number,
): Promise<{ status: 'PASS' | 'FAIL'; detail: string }> {
  const outDir = await mkdtemp(join(tmpdir(), `conformance-${scenario}-`));
  try {
    const { code, output } = await new Promise<{ code: number | null; output: string }>((done) => {
      // --spec-version runs the scenario at that revision's wire version (2026-07-28: no
      // initialize, per-request _meta).
      const child = spawn(node, [cli, 'server', '--url', url, '--scenario', scenario, '--spec-version', revision, '-o', outDir], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      });
      let output = '';
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-8000);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      const timer = setTimeout(() => {
        output += `\n[timed out after ${timeoutMs} ms]`;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.once('close', (code) => {
        clearTimeout(timer);
        done({ code, output });
      });
    });
    const checks = await readChecks(outDir);
    if (!checks) {
      return { status: 'FAIL', detail: `no checks.json (exit ${code}): ${output.trim().split('\n').slice(-5).join(' | ')}` };
    }
    const failures = checks.filter((c) => c.status === 'FAILURE');
    const warnings = checks.filter((c) => c.status === 'WARNING');
    const passed = checks.filter((c) => c.status === 'SUCCESS');
    if (failures.length > 0 || code !== 0) {
      const why = failures.map((c) => `${c.id}: ${c.errorMessage ?? c.description ?? 'failed'}`);
      if (why.length === 0) why.push(`conformance CLI exited ${code}`);
      return { status: 'FAIL', detail: why.join('; ') };
    }
    let detail = `${passed.length} check${passed.length === 1 ? '' : 's'} passed`;
    if (warnings.length > 0) {
      detail += `; warnings: ${warnings.map((c) => `${c.id}: ${c.errorMessage ?? c.description ?? ''}`).join('; ')}`;
    }
    return { status: 'PASS', detail };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

async function readChecks(outDir: string): Promise<Check[] | undefined> {
  for (const entry of await readdir(outDir)) {
    const file = join(outDir, entry, 'checks.json');
    if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as Check[];
  }
  return undefined;
}

/**
 * Starts `node <serverDir>/dist/cli.js --http --port <free port> [fixture args]` and runs,
 * for each frozen requirement set (2025-11-25 and 2026-07-28, each at its own wire
 * version), the scenarios that apply one at a time: the generic ones on every server, and
 * every scored one on the fixture server `_conformance`. Returns one row per scenario of
 * each set (PASS, FAIL or SKIP with a reason), named `<revision> <scenario>`.
 */
export async function runConformance(serverDir: string, opts: ConformanceOptions = {}): Promise<ScenarioResult[]> {
  const log = opts.log ?? (() => {});
  const dir = resolve(serverDir);
  const name = basename(dir);
  const fixture = name === FIXTURE_SERVER;
  const node = await ensureNode22(repoRoot(), log);
  const cli = conformanceCli();
  const fixtureDir = await mkdtemp(join(tmpdir(), `conformance-fixture-${name}-`));
  const results: ScenarioResult[] = [];
  let server: RunningServer | undefined;
  try {
    const args = await launchArgs(name, fixtureDir);
    server = await startServer(dir, args, opts.startTimeoutMs ?? 15_000);
    log(`conformance: ${name} listening at ${server.url}${args.length ? ` (args: ${args.join(' ')})` : ''}`);
    const caps = await probeCapabilities(server.url);
    for (const revision of opts.revisions ?? REVISIONS) {
      const set = await requirementSet(revision);
      const generic = new Map(GENERIC[revision].map((scenario) => [scenario.name, scenario]));
      for (const scenario of set.scored) {
        const row = `${revision} ${scenario}`;
        const started = Date.now();
        if (opts.only && !opts.only.includes(scenario)) {
          results.push({ scenario: row, status: 'SKIP', detail: 'not selected', durationMs: 0 });
          continue;
        }
        const needs = generic.get(scenario)?.needs;
        if (fixture && FIXTURE_TODO.has(scenario) && !generic.has(scenario)) {
          results.push({ scenario: row, status: 'SKIP', detail: `not implemented in servers/${FIXTURE_SERVER} yet`, durationMs: 0 });
          continue;
        }
        if (!fixture && !generic.has(scenario)) {
          results.push({ scenario: row, status: 'SKIP', detail: `needs the suite's fixture (servers/${FIXTURE_SERVER} runs it)`, durationMs: 0 });
          continue;
        }
        // Without a successful probe every scenario runs, so a broken handshake fails loudly.
        if (needs && caps && !hasCapability(caps, needs)) {
          results.push({ scenario: row, status: 'SKIP', detail: `server does not declare the ${needs} capability`, durationMs: 0 });
          continue;
        }
        const r = await runScenario(node, cli, server.url, scenario, revision, opts.scenarioTimeoutMs ?? 60_000);
        const result: ScenarioResult = { scenario: row, ...r, durationMs: Date.now() - started };
        log(`conformance: ${name} ${result.status} ${result.scenario} (${result.durationMs} ms)`);
        results.push(result);
      }
      for (const { scenario, reason } of set.notScored) {
        results.push({ scenario: `${revision} ${scenario}`, status: 'SKIP', detail: `not scored in this set (${reason})`, durationMs: 0 });
      }
    }
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      results.push({
        scenario: '(server process)',
        status: 'FAIL',
        detail: `server exited during the run:\n${server.output()}`,
        durationMs: 0,
      });
    }
  } finally {
    await server?.stop();
    await rm(fixtureDir, { recursive: true, force: true });
  }
  return results;
}

/** A fixed-width PASS/FAIL/SKIP table. */
export function formatTable(server: string, rows: ScenarioResult[]): string {
  const width = Math.max(...rows.map((r) => r.scenario.length), 'scenario'.length);
  const lines = [`conformance: ${server}`, `  ${'scenario'.padEnd(width)}  status  detail`];
  for (const r of rows) {
    const time = r.status === 'SKIP' ? '' : ` (${r.durationMs} ms)`;
    lines.push(`  ${r.scenario.padEnd(width)}  ${r.status.padEnd(6)}  ${r.detail.replace(/\s*\n\s*/g, ' | ')}${time}`);
  }
  const count = (s: ScenarioStatus) => rows.filter((r) => r.status === s).length;
  // Not "N passed, N failed": CI reads that shape as a test runner's closing line.
  lines.push(`  totals: PASS ${count('PASS')}, FAIL ${count('FAIL')}, SKIP ${count('SKIP')}`);
  return lines.join('\n');
}
