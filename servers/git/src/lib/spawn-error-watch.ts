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
 * an 'error' listener at once (one per child, however many watches overlap), which notes
 * the error; `runGit` answers with the error of the child whose command line is its own.
 * A child started elsewhere in the server in that window (a concurrent call's) gets the
 * same listener, which only notes; every child this server starts has its own 'error'
 * listener anyway.
 */

const CHANNEL = 'child_process';

/** What a child created during a watch did: kept on the child, one listener each whatever the number of watches. */
const STATE = Symbol('spawn-error-watch');

interface ChildState {
  error?: Error;
  closed: Promise<void>;
}

function stateOf(child: ChildProcess & { [STATE]?: ChildState }): ChildState {
  const known = child[STATE];
  if (known) return known;
  const state: ChildState = { closed: new Promise((resolve) => child.once('close', () => resolve())) };
  child.on('error', (error) => {
    state.error ??= error;
  });
  child[STATE] = state;
  return state;
}

export interface SpawnErrorWatch {
  /** Settles once our child (if one was created) has closed; resolves to the error it emitted, if any. */
  failure(): Promise<Error | undefined>;
  /** Stops listening for new children. */
  stop(): void;
}

/** Watches for the child that runs `file` with `args` while a command is handed to simple-git. */
export function watchSpawnErrors(file: string, args: readonly string[]): SpawnErrorWatch {
  const seen: ChildProcess[] = [];
  // Whose child it is shows once spawn has set spawnfile and spawnargs (before any 'error').
  const isOurs = (child: ChildProcess) =>
    child.spawnfile === file && child.spawnargs.length === args.length + 1 && args.every((arg, i) => child.spawnargs[i + 1] === arg);
  const onChild = (message: unknown) => {
    const child = (message as { process?: ChildProcess }).process;
    if (!child) return;
    // Heard from the constructor, before spawn returns: the listener is there before the failure is.
    stateOf(child);
    seen.push(child);
  };
  subscribe(CHANNEL, onChild);
  return {
    async failure() {
      // The 'error' of a failed spawn comes a tick after simple-git has given up on the child.
      await new Promise((resolve) => setImmediate(resolve));
      const ours = seen.find(isOurs);
      if (!ours) return undefined;
      const state = stateOf(ours);
      await state.closed;
      return state.error;
    },
    stop() {
      unsubscribe(CHANNEL, onChild);
      seen.length = 0;
    },
  };
}
