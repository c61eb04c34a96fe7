import { accessSync, constants, mkdtempSync, openSync, readFileSync, writeFileSync, writeSync, closeSync, realpathSync } from 'node:fs';
import { readdir, readlink, rm } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeServerRobustness, textOfEveryWidth, type CallAnswer, type ToolCall } from '@mcp-reference/test-harness';
import { createGitServer } from './server.js';
import { bin } from './test-support.js';

const PIECES = textOfEveryWidth(60_000);

/** A repository whose one tracked file is 16 MB of text, on tmpfs when there is one. */
function bigRepository(): string {
  let base = tmpdir();
  try {
    accessSync('/dev/shm', constants.W_OK);
    base = '/dev/shm';
  } catch {
    // no tmpfs: the usual temp directory
  }
  const dir = realpathSync(mkdtempSync(path.join(base, 'mcp-git-robust-')));
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir, env });
  const line = Buffer.from('the quick brown fox jumps over the lazy dog 0123456789\n');
  const block = Buffer.concat(Array.from({ length: 20_000 }, () => line));
  const fd = openSync(path.join(dir, 'big.txt'), 'w');
  for (let written = 0; written < 16 * 1024 * 1024; written += block.length) writeSync(fd, block);
  closeSync(fd);
  // A file of every width of character and long lines, read back in pieces (continuations).
  writeFileSync(path.join(dir, 'pieces.txt'), PIECES);
  // A line git's own regex engine is slow on: patterns that try every start of it.
  writeFileSync(path.join(dir, 'hostile.txt'), `${'ab'.repeat(20_000)}\n`);
  // 4 MB of lines of made-up words, each line different (RE2 caches what it learns of a line
  // it has seen: the 16 MB of one line repeated are quick for it).
  let seed = 2463534242;
  const letter = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return String.fromCharCode(97 + ((seed >>> 0) % 26));
  };
  const words = Array.from({ length: 70_000 }, () => Array.from({ length: 9 }, () => Array.from({ length: 6 }, letter).join('')).join(' '));
  writeFileSync(path.join(dir, 'varied.txt'), `${words.join('\n')}\n`);
  const author = { ...env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@e.invalid', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@e.invalid' };
  // The 4 MB file in a commit of its own, under HEAD: HEAD's diff (read in pieces of 4 KiB
  // below) is then 100 KB, not 4.5 MB. Each piece of git_show runs git from the start of the
  // diff again, so 1,100 pieces of 4 KiB took 100 s of a 120 s timeout.
  execFileSync('git', ['add', 'varied.txt'], { cwd: dir, env });
  execFileSync('git', ['commit', '-q', '-m', 'varied'], { cwd: dir, env: author });
  execFileSync('git', ['add', 'pieces.txt', 'hostile.txt'], { cwd: dir, env });
  execFileSync('git', ['commit', '-q', '-m', 'x'.repeat(3000)], { cwd: dir, env: author });
  // Tracked without hashing it: git grep reads the work-tree file.
  execFileSync('git', ['update-index', '--add', '--cacheinfo', '100644,e69de29bb2d1d6434b8b29ae775ad8c2e48c5391,big.txt'], { cwd: dir, env });
  return dir;
}

/** A repository with one committed file, edited in the work tree. */
function smallRepositoryWithAnEdit(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcp-git-asked-')));
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@e.invalid', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@e.invalid' };
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir, env });
  writeFileSync(path.join(dir, 'asked-about.txt'), 'committed\n');
  writeFileSync(path.join(dir, 'hostile.txt'), `${'a'.repeat(5_000)}b\n`);
  execFileSync('git', ['add', 'asked-about.txt', 'hostile.txt'], { cwd: dir, env });
  execFileSync('git', ['commit', '-q', '-m', 'first'], { cwd: dir, env });
  writeFileSync(path.join(dir, 'asked-about.txt'), 'the edit the user saw\n');
  return dir;
}

async function gitProcessesIn(dir: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (/^\d+$/.test(entry) && (await readlink(`/proc/${entry}/cwd`).catch(() => '')) === dir && /git/.test(await readlink(`/proc/${entry}/exe`).catch(() => ''))) count++;
  }
  return count;
}

describeServerRobustness('git', {
  bin,
  async setup() {
    const dir = bigRepository();
    const asked = smallRepositoryWithAnEdit();
    return {
      args: ['--repository', dir],
      create: ({ maxResultBytes }) => createGitServer({ repositories: [dir], maxResultBytes, logLevel: 'error' }),
      // Not git_status: the big file's index entry has no stat data, so status would hash it.
      quickCall: { name: 'git_branch', arguments: { repo_path: dir, branch_type: 'local' } },
      // Every output of this server is capped far below the 8 MiB default budget; a 3 KB
      // commit subject goes over a 2 KB one.
      bigCall: { name: 'git_log', arguments: { repo_path: dir, max_count: 5 }, maxResultBytes: 2048 },
      // A regex RE2 matches slowly (linear, but each character of a line it has not seen costs
      // its whole program): about 8 s over the 4 MB of different lines, unless stopped. No line
      // is 215 characters long, so none matches; each holds a vowel and a character after it.
      slowCall: { name: 'git_grep', arguments: { repo_path: dir, pathspec: 'varied.txt', pattern: '(.*[aeiou].{15}){3}.{200}$', regex: true } },
      // The work is git's, in a child process, and the worker's: both stop (the suite checks the
      // process's CPU time too).
      workStopped: async () => (await gitProcessesIn(dir)) === 0,
      // The branch HEAD names, which the server reads itself to know the commit.
      ownFile: { path: path.join(dir, '.git', 'refs', 'heads', 'main'), call: { name: 'git_file_at_ref', arguments: { repo_path: dir, path: 'pieces.txt' } } },
      // At a 4 KiB limit: a 60 KB file (over 8x the limit, so streamed from git) by next_byte
      // and by next_line, and the commit's diff by next_byte.
      continuations: [
        ...(['start_byte', 'start_line'] as const).map((by) => ({
          label: `a 60 KB file at HEAD read on by ${by}`,
          create: () => createGitServer({ repositories: [dir], maxOutputBytes: 4096, logLevel: 'error' }),
          first: { name: 'git_file_at_ref', arguments: { repo_path: dir, path: 'pieces.txt', ...(by === 'start_byte' ? { start_byte: 0 } : {}) } },
          next: (answer: CallAnswer, call: ToolCall) => {
            const out = answer.structuredContent as { next_byte?: number; next_line?: number };
            if (out.next_byte === undefined) return undefined;
            // A line range ends without the '\n' of its last line: read on by byte, which keeps it.
            const at = by === 'start_line' && out.next_line !== undefined ? { start_line: out.next_line } : { start_byte: out.next_byte };
            return { name: call.name, arguments: { repo_path: dir, path: 'pieces.txt', ...at } };
          },
          piece: (answer: CallAnswer) => String(answer.structuredContent?.content),
          whole: () => PIECES,
        })),
        {
          label: "the commit's diff, by git_show",
          create: () => createGitServer({ repositories: [dir], maxOutputBytes: 4096, logLevel: 'error' }),
          first: { name: 'git_show', arguments: { repo_path: dir, revision: 'HEAD' } },
          next: (answer: CallAnswer) => {
            const next = answer.structuredContent?.next_byte as number | undefined;
            return next === undefined ? undefined : { name: 'git_show', arguments: { repo_path: dir, revision: 'HEAD', start_byte: next } };
          },
          piece: (answer: CallAnswer) => String(answer.structuredContent?.diff),
          whole: () => execFileSync('git', ['show', '--format=', '--first-parent', 'HEAD'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 }).replace(/^\n+/, ''),
        },
      ],
      // git's regex engine takes exponential time on a backreference (the small repository's
      // file has a line of 5,000 a's): refused before git runs. Over the big one's line of
      // 40,000 characters, git's engine took 19 s for `(a|b|.)*c` and over 60 s for `(.*){20}c`;
      // matched with RE2, on the lines `git grep -F c` finds (none), at once.
      hostilePatterns: [
        { name: 'git_grep', arguments: { repo_path: asked, pattern: '(a*)*\\1c', regex: true }, refused: /backreference/ },
        { name: 'git_grep', arguments: { repo_path: dir, pathspec: 'hostile.txt', pattern: '(a|b|.)*c', regex: true } },
        { name: 'git_grep', arguments: { repo_path: dir, pathspec: 'hostile.txt', pattern: '(.*){20}c', regex: true } },
        // The line holds "ba": RE2 runs over all of it (git's engine: 28 s).
        { name: 'git_grep', arguments: { repo_path: dir, pathspec: 'hostile.txt', pattern: '(a|b|.)*ba$', regex: true, ignore_case: true } },
      ],
      // A hard reset asks first; another session stages the change while the user thinks. (In a
      // small repository of its own: the big one's index entry would make git hash 16 MB.)
      confirmation: {
        create: () => createGitServer({ repositories: [asked], logLevel: 'error' }),
        call: { name: 'git_reset', arguments: { repo_path: asked, hard: true } },
        meanwhile: { name: 'git_add', arguments: { repo_path: asked, files: ['asked-about.txt'] } },
        state: () => `${execFileSync('git', ['status', '--porcelain=v2', '--untracked-files=no'], { cwd: asked, encoding: 'utf8' })}${readFileSync(path.join(asked, 'asked-about.txt'), 'utf8')}`,
      },
      cleanup: async () => {
        await rm(dir, { recursive: true, force: true });
        await rm(asked, { recursive: true, force: true });
      },
    };
  },
});
