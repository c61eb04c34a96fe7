#!/usr/bin/env node
// Run after `changeset version` (`pnpm release:version` runs both): copies each server's
// package.json version into its server.json (MCP registry) and manifest.json (MCPB), which
// must name the same version. Prints what changed.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const servers = path.join(root, 'servers');

for (const entry of await readdir(servers, { withFileTypes: true })) {
  if (!entry.isDirectory() || !existsSync(path.join(servers, entry.name, 'package.json'))) continue;
  const dir = path.join(servers, entry.name);
  const { version } = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
  for (const name of ['server.json', 'manifest.json']) {
    const file = path.join(dir, name);
    if (!existsSync(file)) continue;
    const text = await readFile(file, 'utf8');
    const doc = JSON.parse(text);
    const before = doc.version;
    doc.version = version;
    for (const pkg of doc.packages ?? []) if (pkg.registryType === 'npm') pkg.version = version;
    const next = `${JSON.stringify(doc, null, 2)}\n`;
    if (next === text) continue;
    await writeFile(file, next);
    console.log(`servers/${entry.name}/${name}: ${before} -> ${version}`);
  }
}
