import { describe, it, expect } from 'vitest';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { cliShape, readJson, REGISTRY_OWNER, REPOSITORY_URL, serverPackages } from './packaging.js';
import { checkServerJson } from './packaging-server-json.js';

/**
 * The MCP registry entry of each server (server.json) follows the 2025-12-11 schema's
 * rules and agrees with package.json and the bin: the registry checks name/mcpName and
 * version, and a client builds the command line from packageArguments.
 */
describe('server.json for the MCP registry', () => {
  it.each(serverPackages().map((s) => [s.folder, s] as const))('%s: valid, and true to package.json and the bin flags', async (_f, s) => {
    const file = path.join(s.dir, 'server.json');
    expect(existsSync(file), `${s.folder}/server.json`).toBe(true);
    expect(checkServerJson(readJson(file), s.pkg, s.folder, await cliShape(s.binPath))).toEqual([]);
  });

  it.each(serverPackages().map((s) => [s.folder, s] as const))('%s: package.json has what npm and the registry need', (_f, s) => {
    const short = s.pkg.name.replace(/^@mcp-reference\/server-/, '');
    expect(s.pkg.mcpName).toBe(`io.github.${REGISTRY_OWNER}/${short}`);
    expect(s.pkg.license).toBe('MIT');
    expect(s.pkg.engines?.node).toMatch(/^>=20/);
    expect(s.pkg.files).toEqual(expect.arrayContaining(['dist', 'README.md']));
    expect(s.pkg.keywords).toEqual(expect.arrayContaining(['mcp', 'mcp-server']));
    expect(s.pkg.repository).toEqual({ type: 'git', url: `git+${REPOSITORY_URL}.git`, directory: `servers/${s.folder}` });
    expect(Object.keys(s.pkg.bin)).toEqual([`mcp-server-${short}`]);
    expect(s.pkg.private).toBeUndefined();
  });

  it('refuses what the registry refuses', async () => {
    const [s] = serverPackages();
    const good = readJson<Record<string, unknown>>(path.join(s.dir, 'server.json'));
    const shape = await cliShape(s.binPath);
    const check = (change: (doc: any) => void) => {
      const doc = structuredClone(good) as any;
      change(doc);
      return checkServerJson(doc, s.pkg, s.folder, shape).join('\n');
    };
    expect(check(() => undefined)).toBe('');
    expect(check((d) => (d.description = 'x'.repeat(101)))).toMatch(/description/);
    expect(check((d) => (d.name = 'filesystem'))).toMatch(/name/);
    expect(check((d) => (d.packages[0].version = '^1.0.0'))).toMatch(/one version/);
    expect(check((d) => (d.packages[0].version = 'latest'))).toMatch(/one version/);
    expect(check((d) => (d.packages[0].registryBaseUrl = 'http://127.0.0.1:4873'))).toMatch(/registryBaseUrl/);
    expect(check((d) => (d.packages[0].transport = { type: 'sse' }))).toMatch(/transport/);
    expect(check((d) => (d.packages[0].extra = 1))).toMatch(/extra|Unrecognized/);
    expect(check((d) => d.packages[0].packageArguments.push({ type: 'positional', description: 'no hint' }))).toMatch(/valueHint/);
    expect(check((d) => d.packages[0].packageArguments.push({ type: 'named', name: '--no-such-flag', valueHint: 'x' }))).toMatch(/--no-such-flag/);
    expect(check((d) => (d.packages[0].packageArguments = d.packages[0].packageArguments.filter((a: any) => a.type !== 'named')))).toMatch(/lacks/);
    expect(check((d) => (d.version = '9.9.9'))).toMatch(/version 9\.9\.9/);
  });
});
