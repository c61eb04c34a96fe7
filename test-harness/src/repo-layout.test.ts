import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_HEAD, BUNDLE_TAIL } from '@mcp-reference/shared/compile-cache';
import { missingTemplateFiles, serverDirs } from './template-files.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name)) out.push(full);
  }
  return out;
}

// Every runtime package of the SDK, v1 and v2; tools run by npx (conformance, inspector) are not imports.
const SDK_PACKAGES = '@modelcontextprotocol\\/(?:sdk|server|client|node|core|express|hono|fastify|server-legacy)(?:[\'"/])';
const SDK_IMPORT = new RegExp(`(?:from\\s*['"]|import\\(\\s*['"]|require\\(\\s*['"])${SDK_PACKAGES}`);

describe('repository layout', () => {
  it('gives every server the template files', () => {
    const dirs = serverDirs(repoRoot);
    expect(dirs.map((d) => path.basename(d))).toContain('_template');
    for (const dir of dirs) expect(missingTemplateFiles(dir), path.basename(dir)).toEqual([]);
  });

  it('starts every server README with the Claude Desktop config and the npx line', () => {
    for (const dir of serverDirs(repoRoot)) {
      const readme = readFileSync(path.join(dir, 'README.md'), 'utf8');
      const head = readme.slice(0, 1_500);
      expect(head, path.basename(dir)).toContain('"mcpServers"');
      expect(head, path.basename(dir)).toMatch(/npx -y @mcp-reference\/server-/);
    }
  });

  it('bundles each server into one script, run by a small bin, whose only dependencies are native addons it cannot inline', () => {
    const specifiersOf = (code: string) =>
      [...code.matchAll(/(?:(?<!["'\w])from\s*|\bimport\(\s*|\brequire\(\s*)["']([^"']+)["']/g)].map((m) => m[1]);
    for (const dir of serverDirs(repoRoot)) {
      const name = path.basename(dir);
      expect(readdirSync(path.join(dir, 'dist')).sort(), name).toEqual(['cli.js', 'server.cjs']);
      const bin = readFileSync(path.join(dir, 'dist/cli.js'), 'utf8');
      expect(bin.startsWith('#!/usr/bin/env node'), name).toBe(true);
      // The bin only loads dist/server.cjs (through the code cache) with Node's own modules.
      expect(specifiersOf(bin).filter((s) => !isBuiltin(s)), name).toEqual([]);
      expect(bin, name).toContain('"./server.cjs"');
      const code = readFileSync(path.join(dir, 'dist/server.cjs'), 'utf8');
      // One function expression, as the bin compiles it (scripts/bundle.mjs writes the text
      // compile-cache.ts expects), strict as the ES modules it is built from: the directive
      // has to be the first statement of the function.
      expect(code.startsWith(`${BUNDLE_HEAD}'use strict';`), `${name}: server.cjs starts with the bundle head and 'use strict'`).toBe(true);
      expect(code.trimEnd().endsWith(BUNDLE_TAIL.trim()), `${name}: server.cjs ends with the bundle tail`).toBe(true);
      // zod's messages in English only (scripts/bundle.mjs): the French one is a sample of the 40 others.
      expect(code, `${name}: zod's English messages`).toContain('Invalid input: expected ');
      expect(code.includes('Entr\\xE9e invalide'), `${name}: zod's other locales are left out`).toBe(false);
      // Node's own modules, with or without "node:", are no dependency; nor is a regex's
      // `from '([^']+)'` (simple-git's output parsers) that the scan above also catches.
      // An optional require a dependency tries and lets fail (debug's supports-color) is none either.
      const optional = new Set([...code.matchAll(/try\{(?:let|const|var) \w+=require\("([^"]+)"\)/g)].map((m) => m[1]));
      const external = [...new Set(specifiersOf(code).filter((s) => !isBuiltin(s) && !optional.has(s) && !/[()[\]^]/.test(s)))].sort();
      // Everything else is inside the bundle, so npx installs nothing more than these.
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      expect(Object.keys(pkg.dependencies ?? {}).sort(), name).toEqual(external);
    }
  });

  it('imports an MCP SDK package (v1 sdk, v2 server/client/node/core...) only inside shared/', () => {
    const offenders: string[] = [];
    for (const top of ['servers', 'test-harness', 'scripts']) {
      const dir = path.join(repoRoot, top);
      if (!statSync(dir, { throwIfNoEntry: false })) continue;
      for (const file of sourceFiles(dir)) {
        if (SDK_IMPORT.test(readFileSync(file, 'utf8'))) {
          offenders.push(path.relative(repoRoot, file));
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("keeps domain code (servers' src/lib/) off the base's SDK-loading entry", () => {
    const offenders: string[] = [];
    for (const dir of serverDirs(repoRoot)) {
      const lib = path.join(dir, 'src', 'lib');
      if (!statSync(lib, { throwIfNoEntry: false })) continue;
      for (const file of sourceFiles(lib)) {
        // `@mcp-reference/shared/core` and `/worker` load no SDK; the main entry does.
        if (/from ['"]@mcp-reference\/shared['"]/.test(readFileSync(file, 'utf8'))) offenders.push(path.relative(repoRoot, file));
      }
    }
    expect(offenders).toEqual([]);
  });

  it('depends on ../shared nowhere in the project', () => {
    const offenders: string[] = [];
    for (const top of ['shared', 'servers', 'test-harness', 'scripts']) {
      for (const file of sourceFiles(path.join(repoRoot, top))) {
        if (/['"](\.\.\/)+shared\/(ARCHITECTURE|CONVENTIONS|spec|hooks)/.test(readFileSync(file, 'utf8'))) offenders.push(file);
      }
    }
    expect(offenders).toEqual([]);
  });
});
