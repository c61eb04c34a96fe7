import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { gitEnv, GitError, SAFE_CONFIG } from './git-runner.js';
import type { Repo } from './repo.js';
import { childProcess } from '@mcp-reference/shared/core';

export interface CatResult {
  /** 'missing' when the object does not exist. */
  type: string;
  size: number;
  /** The content, when it is a blob of at most `maxBytes`; otherwise undefined. */
  data?: Buffer;
}

interface Job {
  object: string;
  maxBytes: number;
  resolve(result: CatResult): void;
  reject(error: Error): void;
}

const IDLE_MS = 5_000;

/**
 * One long-lived `git cat-file --batch-command` per repository, so reading many files at
 * a ref costs a line written and read each, not a process each. Requests take turns;
 * `info` comes first so that a huge blob is never streamed through here (the caller
 * reads those with a capped one-off process). The process ends after a few idle seconds.
 */
export function createCatFile() {
  const processes = new Map<string, ReturnType<typeof open>>();

  function open(repo: Repo) {
    const child: ChildProcessWithoutNullStreams = childProcess().spawn('git', ['--no-pager', ...SAFE_CONFIG, 'cat-file', '--batch-command'], {
      cwd: repo.root,
      env: gitEnv(repo),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const queue: Job[] = [];
    // What git has written and no request has taken yet, as it came. It is joined into one
    // buffer only once the waiting request has all it asked for: joining at every chunk copied
    // everything read so far each time, quadratic in a blob's size (an 8 MB blob, read in
    // 64 KB pieces, was some 300 MB of copying on the event loop).
    let chunks: Buffer[] = [];
    let buffered = 0;
    /** Bytes the waiting request needs before it can answer (0: try with whatever there is). */
    let wanted = 0;
    /**
     * The waiting request: given everything buffered, it takes what it needs and says how much
     * (>= 0), or says it needs more: -n, with n the bytes it needs at least.
     */
    let waiter: ((buffer: Buffer) => number) | undefined;
    let idle: NodeJS.Timeout | undefined;
    let dead: Error | undefined;
    let busy = false;

    const fail = (error: Error) => {
      dead ??= error;
      processes.delete(repo.gitDir);
      for (const job of queue.splice(0)) job.reject(dead);
    };
    child.on('error', (error) => fail(new GitError(`Could not run git cat-file: ${error.message}`)));
    child.on('close', () => fail(new GitError('git cat-file ended; call again.')));
    // A spawn that failed (EMFILE) has no pipes; its 'error' is heard above.
    if (!child.stdin || !child.stdout || !child.stderr) throw new GitError('Could not start git cat-file: the server may be out of file descriptors. Try again.');
    child.stdin.on('error', () => undefined);
    child.stderr.on('data', () => undefined);
    /** Hands what is buffered to the waiting request, once there is as much as it needs. */
    const pump = () => {
      while (waiter && buffered > 0 && buffered >= wanted) {
        const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, buffered);
        const used = waiter(all);
        if (used < 0) {
          chunks = [all];
          wanted = -used;
          return;
        }
        const rest = all.subarray(used);
        chunks = rest.length > 0 ? [rest] : [];
        buffered = rest.length;
        wanted = 0;
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      buffered += chunk.length;
      pump();
    });

    /** Resolves with the next header line, or the header and its `size` bytes of content. */
    const read = (withBody: boolean) =>
      new Promise<{ header: string; body?: Buffer }>((resolve) => {
        waiter = (buf) => {
          const newline = buf.indexOf(10);
          if (newline === -1) return -(buf.length + 1);
          const header = buf.subarray(0, newline).toString('utf8');
          const size = Number(/ (\d+)$/.exec(header)?.[1] ?? -1);
          if (!withBody || size < 0 || / missing$| ambiguous$/.test(header)) {
            waiter = undefined;
            resolve({ header });
            return newline + 1;
          }
          const end = newline + 1 + size + 1;
          if (buf.length < end) return -end;
          waiter = undefined;
          resolve({ header, body: Buffer.from(buf.subarray(newline + 1, newline + 1 + size)) });
          return end;
        };
        wanted = 0;
        pump();
      });

    async function next() {
      if (busy) return;
      const job = queue.shift();
      if (!job) {
        idle = setTimeout(() => child.stdin.end(), IDLE_MS);
        idle.unref();
        return;
      }
      busy = true;
      clearTimeout(idle);
      try {
        child.stdin.write(`info ${job.object}\n`);
        const info = await read(false);
        const match = /^[0-9a-f]+ (\w+) (\d+)$/.exec(info.header);
        if (!match) job.resolve({ type: 'missing', size: 0 });
        else if (match[1] !== 'blob' || Number(match[2]) > job.maxBytes) job.resolve({ type: match[1], size: Number(match[2]) });
        else {
          child.stdin.write(`contents ${job.object}\n`);
          const contents = await read(true);
          job.resolve({ type: 'blob', size: Number(match[2]), data: contents.body ?? Buffer.alloc(0) });
        }
      } catch (error) {
        job.reject(error as Error);
      } finally {
        busy = false;
        void next();
      }
    }

    return {
      request(object: string, maxBytes: number, signal?: AbortSignal): Promise<CatResult> {
        if (dead) return Promise.reject(dead);
        return new Promise<CatResult>((resolve, reject) => {
          // A cancelled request still gets its (capped) answer read, then dropped, so the stream stays in step.
          const onAbort = () => reject(new GitError('The call was cancelled.'));
          signal?.addEventListener('abort', onAbort, { once: true });
          const done = <T>(fn: (value: T) => void) => (value: T) => {
            signal?.removeEventListener('abort', onAbort);
            fn(value);
          };
          queue.push({ object, maxBytes, resolve: done(resolve), reject: done(reject) });
          void next();
        });
      },
      close() {
        clearTimeout(idle);
        child.kill('SIGKILL');
      },
    };
  }

  return {
    read(repo: Repo, object: string, maxBytes: number, signal?: AbortSignal): Promise<CatResult> {
      if (/[\n\r\0]/.test(object)) return Promise.reject(new GitError('An object name cannot contain a newline.'));
      let entry = processes.get(repo.gitDir);
      if (!entry) {
        entry = open(repo);
        processes.set(repo.gitDir, entry);
      }
      return entry.request(object, maxBytes, signal);
    },
    close() {
      for (const entry of processes.values()) entry.close();
      processes.clear();
    },
  };
}
