/**
 * Cooperative time slicing for work done with synchronous fs calls (see walk.ts for
 * why): run for up to `sliceMs`, then give the event loop a turn so other requests,
 * progress notifications and cancellation get through.
 *
 * The slices of all the work in the process share each turn of the event loop. With a
 * slice per piece of work, 100 concurrent directory_tree calls each ran their 10 ms in
 * the same turn: the loop stalled for 1.2 s at a time and pings waited 2 s. So a slice
 * also ends once the turn has had `sliceMs` of sliced work, and work that paused resumes
 * one piece a turn, in the order it paused (no piece waits behind one that keeps coming
 * back).
 */
export interface TimeSlicer {
  /** True once the current slice has used its time, or the current turn its share of sliced work. */
  due(): boolean;
  /** Yield to the event loop until it is this work's turn, then start a new slice; throws if `signal` was aborted meanwhile. */
  pause(): Promise<void>;
}

interface Turns {
  /** A turn is open from the first sliced work in it until the next check phase. */
  open: boolean;
  startedAt: number;
  /** Work that paused, resumed first come first served, one a turn. */
  waiting: Array<() => void>;
  ticking: boolean;
}

// Process-wide on purpose: the event loop belongs to the process, and every session and
// server in it (and every copy of this module a bundle may hold) must share its turns.
const TURNS_KEY = Symbol.for('@mcp-reference/server-filesystem/time-slice-turns');

function turns(): Turns {
  const holder = globalThis as { [TURNS_KEY]?: Turns };
  return (holder[TURNS_KEY] ??= { open: false, startedAt: 0, waiting: [], ticking: false });
}

/** Starts a turn at `now` that ends at the next check phase (unless the tick takes it on). */
function openTurn(state: Turns, now: number): void {
  state.open = true;
  state.startedAt = now;
  if (!state.ticking) {
    state.ticking = true;
    setImmediate(() => tick(state));
  }
}

/** Once a turn, in the check phase: end the turn, and hand the next one to the longest-waiting work. */
function tick(state: Turns): void {
  state.ticking = false;
  state.open = false;
  const next = state.waiting.shift();
  if (next) {
    // Its continuation runs right after this callback, in a turn of its own.
    openTurn(state, performance.now());
    next();
  }
}

export function createTimeSlicer(signal?: AbortSignal, sliceMs = 10): TimeSlicer {
  const state = turns();
  let start = performance.now();
  return {
    due() {
      const now = performance.now();
      if (now - start > sliceMs) return true;
      if (!state.open) {
        openTurn(state, now);
        return false;
      }
      return now - state.startedAt > sliceMs;
    },
    async pause() {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const at = state.waiting.indexOf(go);
          if (at >= 0) state.waiting.splice(at, 1);
          reject(signal!.reason);
        };
        const go = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        state.waiting.push(go);
        signal?.addEventListener('abort', onAbort, { once: true });
        if (!state.ticking) {
          state.ticking = true;
          setImmediate(() => tick(state));
        }
      });
      signal?.throwIfAborted();
      start = performance.now();
    },
  };
}
