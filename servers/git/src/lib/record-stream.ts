import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { GitError, withholdFileContent } from './git-runner.js';
import { nodeCrypto } from '@mcp-reference/shared/core';

/**
 * A git process whose output (records ending in a separator) is read a page at a time:
 * between pages the pipe fills and git waits, so page N costs what page 1 costs instead
 * of a walk over everything before it. Used by git_log's cursors.
 */
export interface RecordStream {
  readonly id: string;
  /** What the stream was started for (repository + arguments); a cursor must match it. */
  readonly key: string;
  /** Records handed out so far. */
  readonly position: number;
  busy: boolean;
  /** The next `n` records (fewer at the end); `progress` hears how many are ready, now and then. */
  take(n: number, signal?: AbortSignal, progress?: (ready: number) => void): Promise<string[]>;
  /** Whether at least one more record follows. */
  more(signal?: AbortSignal): Promise<boolean>;
  close(): void;
}

type Child = ChildProcessByStdio<null, Readable, Readable>;

function streamOf(child: Child, key: string, separator: string, position: number, onEnd: () => void): RecordStream {
  if (separator.length !== 1) throw new Error('A record separator is one character (git writes %x1e).');
  const records: string[] = [];
  // The record being read, in the pieces it came in, joined once it is whole: splitting the text
  // read so far again at every chunk was quadratic in a record's length (a hostile repository's
  // 16 MB commit subject held the event loop for 10 s, every session waiting).
  let pieces: string[] = [];
  let ended = false;
  let failure: Error | undefined;
  let stderr = '';
  let wake: (() => void) | undefined;
  const HIGH_WATER = 256;
  /** Records the current take asks for: buffering stops past that (and HIGH_WATER). */
  let wanted = 0;
  // A spawn that failed (EMFILE, ENOENT) reports it here, and has no pipes.
  child.on('error', (error) => {
    failure ??= new GitError(`Could not start git: ${error.message}. Try again; if it persists, the server is out of file descriptors or git is not on PATH.`);
    ended = true;
    onEnd();
    wake?.();
  });
  if (!child.stdout || !child.stderr) {
    ended = true;
    failure = new GitError('Could not start git (no pipes: the server may be out of file descriptors). Try again.');
  } else child.stdout.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    let from = 0;
    for (let at = chunk.indexOf(separator); at !== -1; at = chunk.indexOf(separator, from)) {
      pieces.push(chunk.slice(from, at));
      records.push(pieces.length === 1 ? pieces[0] : pieces.join(''));
      pieces = [];
      from = at + 1;
    }
    if (from < chunk.length) pieces.push(chunk.slice(from));
    if (records.length >= Math.max(HIGH_WATER, wanted)) child.stdout?.pause();
    wake?.();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < 4096) stderr += chunk;
  });
  child.on('close', (code) => {
    ended = true;
    const rest = pieces.join('');
    if (rest.trim()) records.push(rest);
    if (code !== 0 && code !== null && records.length === 0) failure = new GitError(`git failed: ${withholdFileContent(stderr).trim().replace(/\n+/g, ' ').slice(0, 500)}`);
    onEnd();
    wake?.();
  });
  const until = async (enough: () => boolean, signal?: AbortSignal, progress?: () => void) => {
    while (!enough() && !ended) {
      progress?.();
      if (signal?.aborted) throw new GitError('The call was cancelled; git was stopped.');
      child.stdout?.resume();
      await new Promise<void>((resolve) => {
        const done = () => {
          signal?.removeEventListener('abort', done);
          resolve();
        };
        wake = done;
        signal?.addEventListener('abort', done, { once: true });
      });
      wake = undefined;
    }
    if (failure) throw failure;
  };
  const stream: RecordStream = {
    id: nodeCrypto().randomUUID(),
    key,
    position,
    busy: false,
    async take(n, signal, progress) {
      let reported = 0;
      wanted = n + 1;
      const report = () => {
        // Between pages git waits on a full pipe; a long page (a big max_count) says how far it got.
        if (progress && records.length - reported >= 1_000) progress((reported = records.length));
      };
      try {
        await until(() => records.length >= n, signal, report);
      } catch (error) {
        stream.close();
        throw error;
      }
      const page = records.splice(0, n).map((record) => record.replace(/^\n/, ''));
      (stream as { position: number }).position += page.length;
      if (records.length < HIGH_WATER) child.stdout?.resume();
      return page;
    },
    async more(signal) {
      await until(() => records.some((record) => record.trim() !== ''), signal);
      return records.some((record) => record.trim() !== '');
    },
    close() {
      if (!ended) child.kill('SIGKILL');
      // A paused pipe is never read to its end, so it would never close by itself.
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
  };
  return stream;
}

/** The open streams of a server: at most `max`, each closed after `idleMs` without a page. */
export function createRecordStreams(options: { max?: number; idleMs?: number } = {}) {
  const max = options.max ?? 8;
  const idleMs = options.idleMs ?? 30_000;
  const open = new Map<string, { stream: RecordStream; timer: NodeJS.Timeout }>();
  const drop = (id: string) => {
    const entry = open.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    open.delete(id);
    entry.stream.close();
  };
  const touch = (id: string) => {
    const entry = open.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => drop(id), idleMs);
    entry.timer.unref();
    // Most recently used last, so the first is the one to drop when full.
    open.delete(id);
    open.set(id, entry);
  };
  return {
    start(child: Child, key: string, separator: string, position: number): RecordStream {
      while (open.size >= max) drop(open.keys().next().value!);
      let id = '';
      const stream = streamOf(child, key, separator, position, () => {
        const entry = open.get(id);
        if (entry) clearTimeout(entry.timer);
      });
      id = stream.id;
      open.set(id, { stream, timer: setTimeout(() => drop(id), idleMs) });
      touch(id);
      return stream;
    },
    /** The stream with this id, if it is still open and at `position` for `key`. */
    find(id: string, key: string, position: number): RecordStream | undefined {
      const stream = open.get(id)?.stream;
      if (!stream || stream.key !== key || stream.position !== position || stream.busy) return undefined;
      touch(id);
      return stream;
    },
    touch,
    drop,
    close() {
      for (const id of [...open.keys()]) drop(id);
    },
  };
}
