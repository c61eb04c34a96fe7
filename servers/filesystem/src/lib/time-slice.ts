import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Cooperative time slicing for work done with synchronous fs calls (see walk.ts for
 * why): run for up to `sliceMs`, then give the event loop a turn so other requests,
 * progress notifications and cancellation get through.
 */
export interface TimeSlicer {
  /** True once the current slice has used its time. */
  due(): boolean;
  /** Yield to the event loop, then start a new slice; throws if `signal` was aborted meanwhile. */
  pause(): Promise<void>;
}

export function createTimeSlicer(signal?: AbortSignal, sliceMs = 10): TimeSlicer {
  let start = performance.now();
  return {
    due: () => performance.now() - start > sliceMs,
    async pause() {
      await nextTurn();
      signal?.throwIfAborted();
      start = performance.now();
    },
  };
}
