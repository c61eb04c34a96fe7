// Scaling rows of our filesystem server (issue 21): work that must grow with its input,
// not with its square. Each row compares ours with ours at another size (or another
// page), in the same server process, turn by turn, so machine load hits both alike.
//  - edit_file with an ambiguous oldText: a file of 2N identical lines, oldText N of them;
//    time(2N) / time(N) should be close to 2 (it was close to 4: quadratic).
//  - list_directory_with_sizes on a directory of 20,000 files: a page after the first
//    against the first page (which lists and stats the whole directory); should be small.
//  - directory_tree over a tree of 20,000 files with a real .gitignore at its top (GitHub's
//    Python template, 72 rules, none of which hides a file here) against the same walk with
//    respect_gitignore: false: what matching the rules costs the walk.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { figure, type RowInput } from './report.js';
import { start, type ServerSpec } from './servers.js';
import { failed, median, sample, type Sample } from './stats.js';
import { allPages } from './measure-tree.js';
import { cacheRoot } from './tree.js';
import { PYTHON_GITIGNORE } from './python-gitignore.js';

const FLAT_FILES = 20_000;
/** Lines of oldText at N; the file has 2N, each "x\n" (so N = 256k lines is a 1 MB file). */
const EDIT_N = 256 * 1024;

/** The samples this file takes: each one is marked failed, with the reason, when it cannot be taken. */
const SAMPLES = ['editN', 'edit2N', 'pageFirst', 'pageLater', 'treeIgnoring', 'treeNotIgnoring'];

export interface FsScaling {
  rows: RowInput[];
  details: Record<string, Sample>;
}

async function ensureFlatDir(): Promise<string> {
  const dir = join(cacheRoot(), `flat-${FLAT_FILES}-v1`);
  if (existsSync(join(dir, 'done'))) return dir;
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'files'), { recursive: true });
  for (let i = 0; i < FLAT_FILES; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, FLAT_FILES - i) }, (_, j) =>
        writeFile(join(dir, 'files', `file-${String(i + j).padStart(6, '0')}.txt`), 'z'.repeat((i + j) % 997)),
      ),
    );
  }
  if ((await readdir(join(dir, 'files'))).length !== FLAT_FILES) throw new Error('flat directory incomplete');
  await writeFile(join(dir, 'done'), '');
  return dir;
}

/** 20 x 20 directories of 50 files (and a README in each), the Python .gitignore at the top. */
async function ensureGitignoreTree(): Promise<string> {
  const dir = join(cacheRoot(), 'gitignore-tree-v1');
  // The marker beside the tree, not in it: the walk would list it.
  const done = `${dir}.done`;
  if (existsSync(done)) return dir;
  await rm(dir, { recursive: true, force: true });
  const extensions = ['py', 'txt', 'md', 'json', 'cfg'];
  for (let a = 0; a < 20; a++) {
    for (let b = 0; b < 20; b++) {
      const leaf = join(dir, `pkg_${a}`, `module_${b}`);
      await mkdir(leaf, { recursive: true });
      await Promise.all([
        writeFile(join(leaf, 'README.md'), ''),
        ...Array.from({ length: 50 }, (_, i) => writeFile(join(leaf, `file_${i}.${extensions[i % extensions.length]}`), '')),
      ]);
    }
  }
  await writeFile(join(dir, '.gitignore'), PYTHON_GITIGNORE);
  await writeFile(done, '');
  return dir;
}

async function ensureEditFiles(): Promise<{ dir: string; n: string; twoN: string }> {
  const dir = join(cacheRoot(), 'edit-scaling-v1');
  await mkdir(dir, { recursive: true });
  const n = join(dir, 'n.txt');
  const twoN = join(dir, '2n.txt');
  if (!existsSync(n)) await writeFile(n, 'x\n'.repeat(2 * EDIT_N));
  if (!existsSync(twoN)) await writeFile(twoN, 'x\n'.repeat(4 * EDIT_N));
  return { dir, n, twoN };
}

export async function measureFsScaling(options: { filesystem: ServerSpec; runs: number; log: (line: string) => void }): Promise<FsScaling> {
  const { filesystem, runs, log } = options;
  const unavailable = filesystem.entry ? undefined : failed(filesystem.missing ?? 'not built');
  const details: Record<string, Sample> = {};
  if (unavailable) {
    for (const key of SAMPLES) details[key] = unavailable;
  } else {
    log('edit_file with an ambiguous oldText at N and 2N; list_directory_with_sizes pages of 20,000 files; directory_tree with a .gitignore...');
    const edit = await ensureEditFiles();
    const flat = await ensureFlatDir();
    const gitignored = await ensureGitignoreTree();
    const server = start({ spec: filesystem, args: [edit.dir, flat, gitignored] });
    try {
      await server.initialize();
      // An ambiguous edit is an isError answer ("matches N places"): time the request, check the answer.
      const ambiguous = async (file: string, lines: number) => {
        const reply = await server.request('tools/call', { name: 'edit_file', arguments: { path: file, edits: [{ oldText: 'x\n'.repeat(lines), newText: 'y\n' }] } }, 600_000);
        const text = JSON.stringify(reply.result ?? reply.error);
        if (!text.includes(`matches ${lines + 1} places`)) throw new Error(`edit_file did not refuse as ambiguous: ${text.slice(0, 200)}`);
        return reply.ms;
      };
      await ambiguous(edit.n, EDIT_N); // warm-up
      const atN: number[] = [];
      const at2N: number[] = [];
      for (let run = 0; run < runs; run++) {
        atN.push(await ambiguous(edit.n, EDIT_N));
        at2N.push(await ambiguous(edit.twoN, 2 * EDIT_N));
      }
      details.editN = sample(atN);
      details.edit2N = sample(at2N);

      // Paging: every run lists the directory from its first page and then pages 2-11.
      const path = join(flat, 'files');
      const first: number[] = [];
      const later: number[] = [];
      for (let run = 0; run < runs + 1; run++) {
        const page1 = await server.callTool('list_directory_with_sizes', { path }, 600_000);
        let cursor = page1.tool.structuredContent?.nextCursor as string | undefined;
        const pages: number[] = [];
        for (let p = 0; p < 10 && cursor; p++) {
          const next = await server.callTool('list_directory_with_sizes', { path, cursor }, 600_000);
          pages.push(next.ms);
          cursor = next.tool.structuredContent?.nextCursor as string | undefined;
        }
        if (run === 0) continue; // warm-up
        first.push(page1.ms);
        later.push(median(pages));
      }
      details.pageFirst = sample(first);
      details.pageLater = sample(later);

      // The whole tree, page after page, with and without the .gitignore, in turn.
      const wholeTree = async (respect: boolean) => {
        let entries = 0;
        const { ms } = await allPages(
          server,
          'directory_tree',
          (cursor) => ({ path: gitignored, respect_gitignore: respect, ...(cursor ? { cursor } : {}) }),
          (result) => result.structuredContent?.nextCursor as string | undefined,
          (result) => (entries += JSON.stringify(result.structuredContent ?? {}).split('"type":"file"').length - 1),
        );
        // Nothing here is ignored: both walks list every file (the .gitignore itself is listed too).
        if (entries !== 20 * 20 * 51 + 1) throw new Error(`directory_tree listed ${entries} files, not ${20 * 20 * 51 + 1}`);
        return ms;
      };
      await wholeTree(true); // warm-up
      await wholeTree(false);
      const ignoring: number[] = [];
      const notIgnoring: number[] = [];
      for (let run = 0; run < runs; run++) {
        ignoring.push(await wholeTree(true));
        notIgnoring.push(await wholeTree(false));
      }
      details.treeIgnoring = sample(ignoring);
      details.treeNotIgnoring = sample(notIgnoring);
    } catch (error) {
      for (const key of SAMPLES) details[key] ??= failed(error);
    } finally {
      await server.close();
    }
  }
  const rows: RowInput[] = [
    {
      measurement: `edit_file, ambiguous oldText: 2N vs N identical lines (N = ${EDIT_N / 1024}k, a ${(2 * EDIT_N * 2) / (1024 * 1024)} MB file)`,
      unit: 'ms',
      ours: figure(details.edit2N),
      baseline: figure(details.editN),
      baselineLabel: 'ours at N',
      // Linear work doubles; quadratic work quadruples.
      target: { kind: 'ratio', max: 2.5 },
    },
    {
      measurement: `list_directory_with_sizes, a page after the first vs the first (${FLAT_FILES / 1000}k files)`,
      unit: 'ms',
      ours: figure(details.pageLater),
      baseline: figure(details.pageFirst),
      baselineLabel: 'first page',
      target: { kind: 'ratio', max: 0.2 },
    },
    {
      measurement: "directory_tree, 20k files under GitHub's Python .gitignore (72 rules) vs respect_gitignore: false",
      unit: 'ms',
      ours: figure(details.treeIgnoring),
      baseline: figure(details.treeNotIgnoring),
      baselineLabel: 'not reading it',
      // The `ignore` library that matched rules before: 3.0-3.4x here; the matcher of our own
      // looks names, extensions and paths up instead of trying each rule.
      target: { kind: 'ratio', max: 2 },
    },
  ];
  return { rows, details };
}
