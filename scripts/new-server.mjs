#!/usr/bin/env node
// pnpm new:server NAME [--dest DIR] [--no-install]
// Copies servers/_template to servers/NAME with every name changed, so the copy builds and
// passes the contract suite at once. Then runs pnpm install to link the new package.
import { cp, readdir, readFile, writeFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const usage = 'usage: pnpm new:server NAME [--dest DIR] [--no-install]   (NAME: lower-case letters, digits, dashes)';
const fail = (message) => {
  console.error(`new:server: ${message}\n${usage}`);
  process.exit(2);
};

let name;
let dest;
let install = true;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--dest') dest = args[++i] ?? fail('--dest needs a directory');
  else if (args[i] === '--no-install') install = false;
  else if (args[i].startsWith('-')) fail(`unknown option ${args[i]}`);
  else if (name) fail(`unexpected argument ${args[i]}`);
  else name = args[i];
}
if (!name) fail('give the new server a name');
if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) fail(`"${name}" is not a valid name`);
if (name === 'template') fail('"template" is taken');
const target = path.resolve(dest ?? path.join(root, 'servers', name));
if (existsSync(target)) fail(`${path.relative(process.cwd(), target) || target} already exists`);

const pascal = name.replace(/(^|-)([a-z0-9])/g, (_m, _d, c) => c.toUpperCase());
const camel = pascal[0].toLowerCase() + pascal.slice(1);
const replacements = [
  ['@mcp-reference/server-template', `@mcp-reference/server-${name}`],
  ['mcp-server-template', `mcp-server-${name}`],
  ['createTemplateServer', `create${pascal}Server`],
  ['CreateTemplateServerOptions', `Create${pascal}ServerOptions`],
  ['TemplateOptions', `${pascal}Options`],
  ['templateOptions', `${camel}Options`],
  ["describeServerContract('template'", `describeServerContract('${name}'`],
  ["describeServerRobustness('template'", `describeServerRobustness('${name}'`],
  // Packaging: the local-build path in the README, the MCP registry name (server.json, mcpName).
  ['servers/_template', `servers/${name}`],
  ['io.github.mcp-reference/template', `io.github.mcp-reference/${name}`],
];

const source = path.join(root, 'servers', '_template');
await cp(source, target, {
  recursive: true,
  filter: (file) => !/[\\/](node_modules|dist|\.turbo)$/.test(file),
});

async function rewrite(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      await rewrite(file);
      continue;
    }
    let text = await readFile(file, 'utf8');
    for (const [from, to] of replacements) text = text.split(from).join(to);
    await writeFile(file, text);
  }
}
await rewrite(target);

// A new package starts at the version every server starts at, and says what it is.
const pkgFile = path.join(target, 'package.json');
const pkg = JSON.parse(await readFile(pkgFile, 'utf8'));
pkg.version = '0.1.0';
pkg.description = `MCP server: ${name} (describe it here).`;
await writeFile(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
// Its MCP registry entry and MCPB manifest name the same version (the template's may be
// later) and the same description (the registry takes at most 100 characters).
for (const file of ['server.json', 'manifest.json'].map((f) => path.join(target, f)).filter((f) => existsSync(f))) {
  const doc = JSON.parse(await readFile(file, 'utf8'));
  doc.version = pkg.version;
  doc.description = pkg.description.length <= 100 ? pkg.description : `MCP server: ${name}`.slice(0, 100);
  for (const p of doc.packages ?? []) p.version = pkg.version;
  await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);
}
await stat(path.join(target, 'src', 'server.ts'));

console.log(`Created ${path.relative(root, target)} from servers/_template.`);
if (install) {
  execFileSync('npx', ['-y', 'pnpm@10', 'install', '--prefer-offline'], { cwd: root, stdio: 'inherit' });
  // The root README's server list (and the new README's tables) are generated: add it there.
  try {
    execFileSync('npx', ['-y', 'pnpm@10', 'run', 'docs'], { cwd: root, stdio: 'ignore' });
  } catch {
    console.warn('new:server: `pnpm run docs` failed; run it yourself to list the server in README.md');
  }
  console.log(`\nNext:\n  npx -y pnpm@10 build\n  npx -y pnpm@10 exec vitest run servers/${name}\nThen replace the notes domain in src/lib with yours, and add a changeset (npx -y pnpm@10 changeset).`);
}
