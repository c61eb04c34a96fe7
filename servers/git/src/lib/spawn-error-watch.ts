import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ChildProcess } from 'node:child_process';

/*
 * Why this exists. When Node's `spawn` fails with EMFILE or ENFILE (out of file
 * descriptors) it does not throw: it returns a ChildProcess whose stdin, stdout and
 * stderr are null and emits 'error' on it at the next tick (child_process.js: "There is
 * no point in continuing when we've hit EMFILE"). simple-git (3.x, GitExecutorChain
 * .gitResponse) calls `spawn(...)` and then at once `spawned.stdout.on('data', ...)`:
 * that throws a TypeError inside its promise, so its `spawned.on('error', ...)` on the
 * next line is never reached. The task fails, but the child's 'error' is then emitted
 * with no listener, which Node turns into an uncaught exception: the server died. None
 * of simple-git's hooks open to a caller (spawnOptions, completion, errors, abort,
 * outputHandler) sees the child before that line.
 *
 * Node publishes every ChildProcess on the diagnostics channel 'child_process' from its
 * constructor, synchronously inside `spawn`, before the failure is known. While a
 * simple-git command runs, `watchSpawnErrors` listens there and gives each child created
 * an 'error' listener at once; the error of the child whose command line is ours is kept
 * for `runGit` to answer with. A child started elsewhere in the server in that window (a
 * concurrent call's) gets a listener that keeps nothing; every child this server starts
 * has its own 'error' listener anyway.
 */

const CHANNEL = 'child_process';

export interface SpawnErrorWatch {
  /** Settles once our child (if one was created) has closed; resolves to the error it emitted, if any. */
  failure(): Promise<Error | undefined>;
  /** Stops listening for new children. */
  stop(): void;
}

/** Watches for the child that runs `file` with `args` while a command is handed to simple-git. */
export function watchSpawnErrors(file: string, args: readonly string[]): SpawnErrorWatch {
  let ours: { error?: Error; closed: Promise<void> } | undefined;
  const isOurs = (child: ChildProcess) =>
    child.spawnfile === file && child.spawnargs.length === args.length + 1 && args.every((arg, i) => child.spawnargs[i + 1] === arg);
  const onChild = (message: unknown) => {
    const child = (message as { process?: ChildProcess }).process;
    if (!child) return;
    // Heard before spawn returns; whose child it is shows once spawn has set spawnargs.
    const record: { error?: Error; closed: Promise<void> } = { closed: new Promise((resolve) => child.once('close', () => resolve())) };
    child.on('error', (error) => {
      if (ours === undefined && isOurs(child)) ours = record;
      if (ours === record) record.error = error;
    });
    // A child that started claims itself on 'spawn' (the next tick), so `failure` waits for its close.
    child.once('spawn', () => {
      if (ours === undefined && isOurs(child)) ours = record;
    });
  };
  subscribe(CHANNEL, onChild);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    unsubscribe(CHANNEL, onChild);
  };
  return {
    async failure() {
      // The 'error' of a failed spawn comes a tick after simple-git has given up on it.
      await new Promise((resolve) => setImmediate(resolve));
      if (!ours) return undefined;
      await ours.closed;
      return ours.error;
    },
    stop,
  };
}
