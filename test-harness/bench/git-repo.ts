// The git benchmark's repository: N commits over M files, made with `git fast-import` in
// seconds, cached under the OS temp directory between runs. One file (hot.txt) grows by a
// line every 10th commit, for blame; 50 files are left modified in the work tree, for
// status and diff.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface GitBenchRepo {
  dir: string;
  commits: number;
  files: number;
  /** A token found in about 1% of the files. */
  grepToken: string;
  /** Paths (relative) of files for reading at a ref. */
  sample: string[];
  generatedNow: boolean;
  seconds: number;
}

const env = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.invalid',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.invalid',
};

const fileName = (i: number) => `src/d${String(i % 100).padStart(2, '0')}/f${String(i).padStart(5, '0')}.txt`;
const content = (i: number, version: number) =>
  `file ${i} version ${version}\n${i % 100 === 7 ? 'needle_token here\n' : ''}${'lorem ipsum dolor sit amet\n'.repeat(4)}`;

export const GIT_GREP_TOKEN = 'needle_token';

export async function ensureGitRepo(commits: number, files: number, log: (line: string) => void): Promise<GitBenchRepo> {
  const dir = join(tmpdir(), `mcp-bench-git-${commits}-${files}`);
  const done = join(dir, '.git', 'bench-complete');
  const sample = Array.from({ length: 100 }, (_, k) => fileName((k * 197) % files));
  const info = { dir, commits, files, grepToken: GIT_GREP_TOKEN, sample };
  if (existsSync(done)) return { ...info, generatedNow: false, seconds: Number(readFileSync(done, 'utf8')) };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`git: generating a repository with ${commits} commits and ${files} files (once; cached in ${dir})...`);
  const started = performance.now();
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir, env });
  const child = spawn('git', ['fast-import', '--quiet'], { cwd: dir, env, stdio: ['pipe', 'ignore', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const chunks: string[] = [];
  let pending = 0;
  const write = async (text: string) => {
    chunks.push(text);
    pending += text.length;
    if (pending > 1 << 20) {
      const data = chunks.join('');
      chunks.length = 0;
      pending = 0;
      if (!child.stdin.write(data)) await new Promise((resolve) => child.stdin.once('drain', resolve));
    }
  };
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  let time = 1_600_000_000;
  let hot = '';
  for (let c = 0; c < commits; c++) {
    time += 600;
    let body = `commit refs/heads/main\nmark :${c + 1}\nauthor Bench <bench@example.invalid> ${time} +0000\ncommitter Bench <bench@example.invalid> ${time} +0000\n${data(`commit ${c}`)}`;
    if (c > 0) body += `from :${c}\n`;
    if (c === 0) {
      for (let i = 0; i < files; i++) body += `M 100644 inline ${fileName(i)}\n${data(content(i, 0))}`;
    } else {
      const i = (c * 7919) % files;
      body += `M 100644 inline ${fileName(i)}\n${data(content(i, c))}`;
    }
    if (c % 10 === 0) {
      hot += `line added by commit ${c}\n`;
      body += `M 100644 inline hot.txt\n${data(hot)}`;
    }
    await write(body);
  }
  child.stdin.end(chunks.join(''));
  if ((await exited) !== 0) throw new Error('git fast-import failed');
  execFileSync('git', ['checkout', '-q', '-f', 'main'], { cwd: dir, env });
  for (let k = 0; k < 50; k++) writeFileSync(join(dir, fileName((k * 389) % files)), `modified in the work tree ${k}\n`);
  const seconds = (performance.now() - started) / 1000;
  writeFileSync(done, String(seconds));
  return { ...info, generatedNow: true, seconds };
}

/** Characters of the shorter long line (the other has twice as many). */
export const LONG_LINE_CHARS = 3_000_000;

/**
 * A repository of two one-line files, `n.txt` of LONG_LINE_CHARS characters "abab…" and
 * `2n.txt` of twice as many: git's own engine takes time quadratic in such a line on
 * `(a|b|.)*ba$`, which git_grep matches in linear time (issue 21, item 3).
 */
export function ensureLongLineRepo(): string {
  const dir = join(tmpdir(), `mcp-bench-git-long-lines-${LONG_LINE_CHARS}`);
  const done = join(dir, '.git', 'bench-complete');
  if (existsSync(done)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir, env });
  writeFileSync(join(dir, 'n.txt'), `${'ab'.repeat(LONG_LINE_CHARS / 2)}\n`);
  writeFileSync(join(dir, '2n.txt'), `${'ab'.repeat(LONG_LINE_CHARS)}\n`);
  execFileSync('git', ['add', 'n.txt', '2n.txt'], { cwd: dir, env });
  execFileSync('git', ['commit', '-q', '-m', 'long lines'], { cwd: dir, env });
  writeFileSync(done, '');
  return dir;
}
