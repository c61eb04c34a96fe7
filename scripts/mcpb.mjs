#!/usr/bin/env node
// pnpm bundle [SERVER...] [--out DIR] [--root CHECKOUT]
// Packs each built server (default: every folder under servers/) into a Claude Desktop
// bundle with `mcpb pack`: the server's manifest.json (version from package.json), its
// bundled dist/ (the bin and the server script) and README.md, and its runtime dependencies (native addons such as
// better-sqlite3, which cannot be inlined) copied from the workspace. A bundle with a
// native addon works only where the addon was built, so its manifest declares this
// platform and this Node major, and its file name says platform and arch.
import { cp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync, realpathSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let root = checkout;
const args = process.argv.slice(2);
let out;
const wanted = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--out') out = path.resolve(args[++i] ?? '');
  else if (args[i] === '--root') root = path.resolve(args[++i] ?? '');
  else if (args[i].startsWith('-')) {
    console.error(`bundle: unknown option ${args[i]}\nusage: pnpm bundle [SERVER...] [--out DIR] [--root CHECKOUT]`);
    process.exit(2);
  } else wanted.push(args[i]);
}
out ??= path.join(root, 'bundles');

const serversDir = path.join(root, 'servers');
const folders = (await readdir(serversDir, { withFileTypes: true }))
  .filter((e) => e.isDirectory() && existsSync(path.join(serversDir, e.name, 'manifest.json')))
  .map((e) => e.name)
  .filter((name) => wanted.length === 0 || wanted.includes(name) || wanted.includes(name.replace(/^_/, '')))
  .sort();
for (const name of wanted) {
  if (!folders.some((f) => f === name || f === `_${name}`)) {
    console.error(`bundle: no servers/${name} with a manifest.json`);
    process.exit(2);
  }
}

const mcpbCli = path.join(findPackageDir('@anthropic-ai/mcpb', path.join(checkout, 'test-harness')), 'dist', 'cli', 'cli.js');

/** Where Node would find package `name` from `fromDir` (node_modules of it and its parents). */
function findPackageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (path.dirname(dir) === dir) throw new Error(`bundle: cannot find ${name} from ${fromDir} (run npx -y pnpm@10 install)`);
  }
}

/** Copies an installed package (symlinks resolved) and, recursively, its own dependencies. */
async function copyDependency(name, fromDir, modulesOut, seen) {
  const source = findPackageDir(name, fromDir);
  if (seen.has(source)) return;
  seen.add(source);
  const pkg = JSON.parse(await readFile(path.join(source, 'package.json'), 'utf8'));
  const native = existsSync(path.join(source, 'binding.gyp'));
  await cp(source, path.join(modulesOut, name), {
    recursive: true,
    dereference: true,
    // A native addon needs its lib and the built .node file, not its C sources or build tree.
    filter: (file) => {
      const rel = path.relative(source, file).split(path.sep).join('/');
      if (rel.split('/').includes('node_modules')) return false;
      if (!native) return true;
      if (/^(deps|src)(\/|$)/.test(rel)) return false;
      if (rel.startsWith('build/') && rel !== 'build/Release' && !/^build\/Release\/[^/]+\.node$/.test(rel)) return false;
      return true;
    },
  });
  for (const dep of Object.keys(pkg.dependencies ?? {})) {
    if (name === 'better-sqlite3' && dep === 'prebuild-install') continue; // install-time only
    await copyDependency(dep, source, modulesOut, seen);
  }
}

await mkdir(out, { recursive: true });
const written = [];
for (const folder of folders) {
  const dir = path.join(serversDir, folder);
  const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
  const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'));
  const bin = path.join(dir, 'dist', 'cli.js');
  if (!existsSync(bin)) {
    console.error(`bundle: servers/${folder} is not built (run npx -y pnpm@10 build)`);
    process.exit(1);
  }
  const stage = path.join(out, `.stage-${folder}`);
  await rm(stage, { recursive: true, force: true });
  // The bin and the bundled server it runs (dist/cli.js, dist/server.cjs).
  await cp(path.dirname(bin), path.join(stage, 'dist'), { recursive: true });
  await cp(path.join(dir, 'README.md'), path.join(stage, 'README.md'));

  const dependencies = Object.keys(pkg.dependencies ?? {});
  const seen = new Set();
  for (const dep of dependencies) await copyDependency(dep, dir, path.join(stage, 'node_modules'), seen);
  const native = [...seen].some((d) => existsSync(path.join(d, 'binding.gyp')));

  manifest.version = pkg.version;
  let suffix = '';
  if (native) {
    const major = Number(process.versions.node.split('.')[0]);
    manifest.compatibility = {
      ...manifest.compatibility,
      platforms: [process.platform],
      runtimes: { ...manifest.compatibility?.runtimes, node: `>=${major}.0.0 <${major + 1}.0.0` },
    };
    suffix = `-${process.platform}-${process.arch}`;
  }
  await writeFile(path.join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const file = path.join(out, `${pkg.name.replace(/^@mcp-reference\//, '')}-${pkg.version}${suffix}.mcpb`);
  execFileSync(process.execPath, [mcpbCli, 'pack', stage, file], { stdio: ['ignore', 'ignore', 'inherit'] });
  await rm(stage, { recursive: true, force: true });
  const { size } = await stat(file);
  written.push({ folder, file, size, native });
  console.log(`${path.relative(process.cwd(), file)}  ${(size / 1024).toFixed(0)} KB${native ? `  (native: ${process.platform}-${process.arch}, Node ${process.versions.node.split('.')[0]})` : ''}`);
}
if (process.env.MCPB_REPORT) await writeFile(process.env.MCPB_REPORT, JSON.stringify(written, null, 2));
