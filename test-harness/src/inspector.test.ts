import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureNode22 } from '../conformance/conformance.js';
import { recordFigures, repoRoot, serverPackages, smokeRun } from './packaging.js';

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

  it.each(serverPackages().map((s) => [s.folder, s] as const))('%s: tools/list and one tools/call', async (folder, s) => {
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
});
