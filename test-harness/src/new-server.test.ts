import { describe, it, expect, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * `pnpm new:server NAME` must give a server that builds and passes the contract suite
 * at once. The copy is made outside the repository (--dest), linked to the workspace
 * packages by hand, bundled, and its own tests run there.
 */
describe('pnpm new:server', () => {
  let work: string;
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('refuses a bad name with exit 2', async () => {
    const error = await exec(process.execPath, [path.join(repoRoot, 'scripts/new-server.mjs'), 'Bad_Name', '--no-install']).catch((e) => e);
    expect(error.code).toBe(2);
    expect(error.stderr).toMatch(/not a valid name/);
  });

  it('creates a renamed copy of the template that builds and passes its tests', async () => {
    work = await realpath(await mkdtemp(path.join(tmpdir(), 'new-server-')));
    const dest = path.join(work, 'servers', 'probe-notes');
    await exec(process.execPath, [path.join(repoRoot, 'scripts/new-server.mjs'), 'probe-notes', '--dest', dest, '--no-install']);

    const pkg = JSON.parse(await readFile(path.join(dest, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('@mcp-reference/server-probe-notes');
    expect(Object.keys(pkg.bin)).toEqual(['mcp-server-probe-notes']);
    const server = await readFile(path.join(dest, 'src/server.ts'), 'utf8');
    expect(server).toContain('export function createProbeNotesServer(');
    expect(server).toContain("name: 'mcp-server-probe-notes'");
    expect(server).not.toMatch(/createTemplateServer|mcp-server-template/);
    expect(existsSync(path.join(dest, 'node_modules'))).toBe(false);

    // What the workspace root and `pnpm install` would provide.
    await symlink(path.join(repoRoot, 'tsconfig.base.json'), path.join(work, 'tsconfig.base.json'));
    const modules = path.join(dest, 'node_modules');
    await mkdir(path.join(modules, '@mcp-reference'), { recursive: true });
    await symlink(path.join(repoRoot, 'shared'), path.join(modules, '@mcp-reference/shared'));
    await symlink(path.join(repoRoot, 'test-harness'), path.join(modules, '@mcp-reference/test-harness'));
    await symlink(await realpath(path.join(repoRoot, 'servers/_template/node_modules/zod')), path.join(modules, 'zod'));
    await symlink(await realpath(path.join(repoRoot, 'servers/_template/node_modules/vitest')), path.join(modules, 'vitest'));

    await exec(process.execPath, [path.join(repoRoot, 'scripts/bundle.mjs'), 'server'], { cwd: dest });
    const version = await exec(process.execPath, [path.join(dest, 'dist/cli.js'), '--version']);
    expect(version.stdout.trim()).toBe('0.1.0');

    const vitest = path.join(repoRoot, 'node_modules/vitest/vitest.mjs');
    const reportFile = path.join(work, 'report.json');
    const run = await exec(process.execPath, [vitest, 'run', '--root', dest, '--reporter', 'json', '--outputFile', reportFile], {
      cwd: dest,
    }).catch((e) => e);
    expect(run.code ?? 0, `${run.stdout}\n${run.stderr}`).toBe(0);
    const report = JSON.parse(await readFile(reportFile, 'utf8'));
    expect(report.numFailedTests).toBe(0);
    const names: string[] = report.testResults.flatMap((file: { assertionResults: { fullName: string }[] }) =>
      file.assertionResults.map((test) => test.fullName),
    );
    for (const transport of ['in-memory', 'stdio', 'http']) {
      expect(names.filter((n) => n.includes(`probe-notes contract over ${transport}`)).length, transport).toBeGreaterThan(5);
    }
    // The robustness suite comes with the copy, under the new name.
    expect(names.filter((n) => n.includes('probe-notes robustness')).length).toBeGreaterThan(5);
  }, 120_000);
});
