// Fixtures for the benchmark, generated once into os.tmpdir() and reused: a nested tree of
// small text files, a 1 GB file with lines at both ends, and a small notes directory.
import { mkdir, open, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bump when the layout changes, so old caches are not reused. */
const LAYOUT_VERSION = 1;
const FILES_PER_DIR = 100;
const EXTENSIONS = ['ts', 'txt', 'md', 'json', 'ts', 'txt', 'ts', 'txt', 'js', 'txt'];

/** The token grep and grep_files look for: present in one file of every GREP_EVERY. */
export const GREP_TOKEN = 'benchNeedle';
const GREP_EVERY = 97;

export interface Tree {
  dir: string;
  files: number;
  dirs: number;
  generatedNow: boolean;
  seconds: number;
}

export function cacheRoot(): string {
  return join(tmpdir(), 'mcp-reference-bench');
}

function fileText(n: number): string {
  const lines = [
    `// file ${n} of the generated benchmark tree`,
    `export const value${n} = ${(n * 7919) % 10007};`,
    'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.',
    `function helper${n % 50}(x) { return x * ${n % 13}; }`,
  ];
  if (n % GREP_EVERY === 0) lines.push(`const marker = '${GREP_TOKEN}-${n}';`);
  return `${lines.join('\n')}\n`;
}

/** Fan-out per level so that leaves * FILES_PER_DIR is about `files`. */
function layout(files: number): number[] {
  const leaves = Math.max(1, Math.round(files / FILES_PER_DIR));
  const levels = leaves <= 10 ? 1 : leaves <= 100 ? 2 : 3;
  const fan = Math.max(1, Math.round(leaves ** (1 / levels)));
  return Array.from({ length: levels }, () => fan);
}

async function runPool(tasks: Iterable<() => Promise<void>>, concurrency: number): Promise<void> {
  const it = tasks[Symbol.iterator]();
  const worker = async () => {
    for (let next = it.next(); !next.done; next = it.next()) await next.value();
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Generates (or reuses) a tree of about `files` files; returns its real path. */
export async function ensureTree(files: number, log: (msg: string) => void): Promise<Tree> {
  const started = Date.now();
  const name = `tree-${files}-v${LAYOUT_VERSION}`;
  const dir = join(cacheRoot(), name);
  const marker = join(cacheRoot(), `${name}.done`);
  if (existsSync(marker)) {
    const meta = JSON.parse(await readFile(marker, 'utf8')) as { files: number; dirs: number };
    return { dir: await realpath(dir), ...meta, generatedNow: false, seconds: 0 };
  }
  log(`generating a tree of ~${files} files in ${dir} (once; reused by later runs)...`);
  await rm(dir, { recursive: true, force: true });
  const fans = layout(files);
  const leafDirs: string[] = [];
  const allDirs: string[] = [dir];
  const walk = (base: string, depth: number) => {
    if (depth === fans.length) {
      leafDirs.push(base);
      return;
    }
    for (let i = 0; i < fans[depth]; i++) {
      const sub = join(base, `${['pkg', 'src', 'mod', 'part'][depth % 4]}-${i}`);
      allDirs.push(sub);
      walk(sub, depth + 1);
    }
  };
  walk(dir, 0);
  for (const d of allDirs) await mkdir(d, { recursive: true });
  let n = 0;
  const jobs: Array<() => Promise<void>> = [];
  // A README in every directory, like real projects, and the bulk in the leaves.
  for (const d of allDirs) {
    const k = n++;
    jobs.push(() => writeFile(join(d, 'README.md'), fileText(k)));
  }
  for (const d of leafDirs) {
    for (let i = 0; i < FILES_PER_DIR; i++) {
      const k = n++;
      jobs.push(() => writeFile(join(d, `file-${k}.${EXTENSIONS[k % EXTENSIONS.length]}`), fileText(k)));
    }
  }
  await runPool(jobs, 32);
  const meta = { files: n, dirs: allDirs.length };
  await writeFile(marker, JSON.stringify(meta));
  const seconds = (Date.now() - started) / 1000;
  log(`generated ${meta.files} files in ${meta.dirs} directories in ${seconds.toFixed(1)} s`);
  return { dir: await realpath(dir), ...meta, generatedNow: true, seconds };
}

export interface BigFile {
  dir: string;
  file: string;
  bytes: number;
}

/**
 * A 1 GiB file made in constant time: real lines at the start, a hole, real lines at the
 * end. Head must find its lines without reading the hole, tail likewise from the end.
 */
export async function ensureBigFile(): Promise<BigFile> {
  const dir = join(cacheRoot(), 'bigfile');
  const file = join(dir, 'big-1g.log');
  const size = 1024 ** 3;
  const lines = (from: number) =>
    Array.from({ length: 20 }, (_, i) => `line ${from + i}: the quick brown fox jumps over the lazy dog\n`).join('');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    const handle = await open(file, 'w');
    try {
      await handle.write(lines(1));
      await handle.truncate(size);
      const tail = Buffer.from(lines(1_000_000));
      await handle.write(tail, 0, tail.length, size);
    } finally {
      await handle.close();
    }
  }
  const real = await realpath(dir);
  const { size: bytes } = await stat(file);
  return { dir: real, file: join(real, 'big-1g.log'), bytes };
}

/** A few notes for the template server, which serves a directory of notes. */
export async function ensureNotesDir(): Promise<string> {
  const dir = join(cacheRoot(), 'notes');
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < 5; i++) {
    const file = join(dir, `note-${i}.md`);
    if (!existsSync(file)) await writeFile(file, `# Note ${i}\n\nSome text for note ${i}.\n`);
  }
  return realpath(dir);
}

/** A small directory for start-up and round-trip measurements. */
export async function ensureSmallDir(): Promise<string> {
  const dir = join(cacheRoot(), 'small');
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'hello.txt');
  if (!existsSync(file)) await writeFile(file, 'hello\n');
  return realpath(dir);
}
