import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureNode22 } from '../conformance/conformance.js';
import { pathToFileURL } from 'node:url';
import { recordFigures, repoRoot, serverPackages, smokeRun, type SmokeRun } from './packaging.js';
import { spawnHttpServer } from './clients.js';

const exec = promisify(execFile);

/** Pinned so CI runs what was tried; docs/clients.md shows the unpinned command. */
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';

/**
 * The MCP Inspector's CLI, as docs/clients.md shows it, against each built server:
 * `npx -y @modelcontextprotocol/inspector --cli --method ... -- node servers/X/dist/cli.js ARGS`.
 * The Inspector needs Node 22, fetched from the npm registry by the conformance runner's
 * ensureNode22 when this Node is older; npm's cache for it is kept in node_modules/.cache.
 */
describe('MCP Inspector CLI', () => {
  let work = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'inspector-'));
    const node22 = await ensureNode22(repoRoot);
    env = {
      ...(process.env as Record<string, string>),
      PATH: `${path.dirname(node22)}${path.delimiter}${process.env.PATH}`,
      npm_config_cache: path.join(repoRoot, 'node_modules', '.cache', 'inspector-npm'),
      npm_config_update_notifier: 'false',
    };
  }, 180_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  const inspect = async (options: string[], launch: string[]) => {
    const { stdout } = await exec('npx', ['-y', INSPECTOR, '--cli', ...options, '--', ...launch], {
      env,
      cwd: work,
      timeout: 150_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return JSON.parse(stdout) as Record<string, unknown>;
  };

  it.each(serverPackages().map((s) => [s.folder, s] as const))('%s: tools/list and one tools/call (default era)', async (folder, s) => {
    const smoke = await smokeRun(folder, await mkdtemp(path.join(work, `${folder}-`)));
    try {
      const launch = [process.execPath, s.binPath, ...smoke.args];
      const started = performance.now();
      const listed = (await inspect(['--method', 'tools/list'], launch)) as { tools: { name: string; outputSchema?: unknown }[] };
      const listMs = performance.now() - started;
      expect(listed.tools.map((t) => t.name)).toContain(smoke.tool);
      expect(listed.tools.every((t) => t.outputSchema !== undefined)).toBe(true);

      const toolArgs = Object.entries(smoke.arguments).flatMap(([k, v]) => ['--tool-arg', `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`]);
      const result = await inspect(['--method', 'tools/call', '--tool-name', smoke.tool, ...toolArgs], launch);
      expect(result.isError, JSON.stringify(result).slice(0, 500)).toBeFalsy();
      expect(JSON.stringify(result)).toContain(smoke.expect);
      expect(result.structuredContent).toBeDefined();
      await recordFigures('inspector', { [s.pkg.name]: { toolsListMs: Math.round(listMs) } });
    } finally {
      await smoke.close?.();
    }
  }, 180_000);

  // 2025 (legacy), auto (server/discover first, 2026-07-28 when offered) and 2026-07-28
  // (modern), over stdio and HTTP: tools/list, one tools/call, resources/read, prompts/get.
  const ERAS = ['legacy', 'auto', 'modern'] as const;
  for (const transport of ['stdio', 'http'] as const) {
    it.each(serverPackages().map((s) => [s.folder, s] as const))(`%s over ${transport}: 4 methods in each protocol era`, async (folder, s) => {
      const dir = await mkdtemp(path.join(work, `${folder}-${transport}-`));
      const smoke = await smokeRun(folder, dir);
      const http = transport === 'http' ? await spawnHttpServer(s.binPath, smoke.args) : undefined;
      try {
        const target = http ? ['--transport', 'http', '--server-url', http.url] : [];
        const launch = http ? [] : [process.execPath, s.binPath, ...smoke.args];
        const run = (era: string, options: string[]) => inspectTarget([...target, '--protocol-era', era, ...options], launch);
        for (const era of ERAS) {
          const listed = (await run(era, ['--method', 'tools/list'])) as { tools: { name: string }[] };
          expect(listed.tools.map((t) => t.name), `${era} tools/list`).toContain(smoke.tool);
          const toolArgs = Object.entries(smoke.arguments).flatMap(([k, v]) => ['--tool-arg', `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`]);
          const called = await run(era, ['--method', 'tools/call', '--tool-name', smoke.tool, ...toolArgs]);
          expect(called.isError, `${era} tools/call: ${JSON.stringify(called).slice(0, 300)}`).toBeFalsy();
          expect(JSON.stringify(called)).toContain(smoke.expect);
          const probe = PROBES[folder]?.(dir, smoke) ?? PROBES._template(dir, smoke);
          const uri = probe.uri ?? firstLink(called);
          expect(uri, `${era}: a resource to read`).toBeDefined();
          const read = (await run(era, ['--method', 'resources/read', '--uri', uri!])) as { contents?: unknown[] };
          expect(read.contents?.length, `${era} resources/read ${uri}: ${JSON.stringify(read).slice(0, 300)}`).toBeGreaterThan(0);
          const promptArgs = Object.entries(probe.prompt.args).map(([k, v]) => `${k}=${v}`);
          const prompt = (await run(era, ['--method', 'prompts/get', '--prompt-name', probe.prompt.name, ...(promptArgs.length ? ['--prompt-args', ...promptArgs] : [])])) as {
            messages?: unknown[];
          };
          expect(prompt.messages?.length, `${era} prompts/get ${probe.prompt.name}: ${JSON.stringify(prompt).slice(0, 300)}`).toBeGreaterThan(0);
        }
      } finally {
        await http?.close();
        await smoke.close?.();
      }
    }, 600_000);
  }

  const inspectTarget = async (options: string[], launch: string[]) => {
    const { stdout } = await exec('npx', ['-y', INSPECTOR, '--cli', ...options, ...(launch.length ? ['--', ...launch] : [])], {
      env,
      cwd: work,
      timeout: 150_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return JSON.parse(stdout) as Record<string, unknown>;
  };
});

/** A resource to read and a prompt to get, per server, on the smoke fixture in `dir`. */
const PROBES: Record<string, (dir: string, smoke: SmokeRun) => { uri?: string; prompt: { name: string; args: Record<string, string> } }> = {
  _template: () => ({ uri: 'note:///welcome', prompt: { name: 'summarize_note', args: { name: 'welcome' } } }),
  filesystem: (dir) => ({
    uri: pathToFileURL(path.join(dir, 'hello.txt')).href,
    prompt: { name: 'summarize_file', args: { path: path.join(dir, 'hello.txt') } },
  }),
  // A commit the git_log result links to.
  git: (dir) => ({ prompt: { name: 'commit_message', args: { repo_path: dir } } }),
  sqlite: () => ({ uri: 'memo://insights', prompt: { name: 'mcp-demo', args: { topic: 'shop' } } }),
  // The page the fetch result links to.
  fetch: (_dir, smoke) => ({ prompt: { name: 'fetch', args: { url: String(smoke.arguments.url) } } }),
};

function firstLink(result: Record<string, unknown>): string | undefined {
  const content = (result.content ?? []) as { type: string; uri?: string }[];
  return content.find((block) => block.type === 'resource_link')?.uri;
}
