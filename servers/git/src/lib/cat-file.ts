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
    let buffer: Buffer = Buffer.alloc(0);
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
    child.stdout.on('data', (chunk: Buffer) => {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      while (waiter) {
        const used = waiter(buffer);
        if (used < 0) break;
        buffer = buffer.subarray(used);
      }
    });

    /** Resolves with the next header line, or the header and its `size` bytes of content. */
    const read = (withBody: boolean) =>
      new Promise<{ header: string; body?: Buffer }>((resolve) => {
        waiter = (buf) => {
          const newline = buf.indexOf(10);
          if (newline === -1) return -1;
          const header = buf.subarray(0, newline).toString('utf8');
          const size = Number(/ (\d+)$/.exec(header)?.[1] ?? -1);
          if (!withBody || size < 0 || / missing$| ambiguous$/.test(header)) {
            waiter = undefined;
            resolve({ header });
            return newline + 1;
          }
          if (buf.length < newline + 1 + size + 1) return -1;
          waiter = undefined;
          resolve({ header, body: Buffer.from(buf.subarray(newline + 1, newline + 1 + size)) });
          return newline + 1 + size + 1;
        };
        if (buffer.length) {
          const used = waiter(buffer);
          if (used >= 0) buffer = buffer.subarray(used);
        }
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
