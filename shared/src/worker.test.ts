import { describe, expect, it } from 'vitest';
import { runInWorker } from './worker.js';
import { ToolError } from './errors.js';

/** The longest the event loop went without running a timer while `work` ran. */
async function worstLoopDelay<T>(work: Promise<T>): Promise<{ result: PromiseSettledResult<T>; worstMs: number }> {
  let worst = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 5);
  const [result] = await Promise.allSettled([work]);
  clearInterval(timer);
  return { result, worstMs: worst };
}

const catastrophic = (input: { pattern: string; text: string }) => new RegExp(input.pattern).test(input.text);

describe('runInWorker', () => {
  it('returns what the task returns, with the input it was given', async () => {
    const sum = await runInWorker((numbers: number[]) => numbers.reduce((a, b) => a + b, 0), [1, 2, 3]);
    expect(sum).toBe(6);
  });

  it('lets the task load Node built-ins and post messages', async () => {
    const seen: unknown[] = [];
    const base = await runInWorker(
      (file: string, post, load) => {
        post('halfway');
        return load('node:path').basename(file);
      },
      '/a/b/c.txt',
      { onMessage: (m) => seen.push(m) },
    );
    expect(base).toBe('c.txt');
    expect(seen).toEqual(['halfway']);
  });

  it('stops a catastrophic regex at the time limit without blocking the event loop', async () => {
    const work = runInWorker(catastrophic, { pattern: '(a+)+\\1$', text: `${'a'.repeat(40)}b` }, {
      timeoutMs: 300,
      timeoutMessage: 'too slow: use a simpler pattern',
    });
    const { result, worstMs } = await worstLoopDelay(work);
    expect(result.status).toBe('rejected');
    const reason = (result as PromiseRejectedResult).reason;
    expect(reason).toBeInstanceOf(ToolError);
    expect(reason.message).toBe('too slow: use a simpler pattern');
    // Generous: the point is that the loop kept turning, not how fast the machine is.
    expect(worstMs).toBeLessThan(100);
  });

  it('stops the work when the signal aborts', async () => {
    const controller = new AbortController();
    const work = runInWorker(catastrophic, { pattern: '(a+)+\\1$', text: `${'a'.repeat(40)}b` }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by the client')), 50);
    await expect(work).rejects.toThrow('cancelled by the client');
  });

  it('rejects at once when the signal has already aborted', async () => {
    await expect(runInWorker(() => 1, null, { signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
  });

  it('reports a ToolError thrown by the task as a ToolError and other errors as they are', async () => {
    const toolFailure = runInWorker(() => {
      const error = new Error('narrow the path');
      error.name = 'ToolError';
      throw error;
    }, null);
    await expect(toolFailure).rejects.toBeInstanceOf(ToolError);
    await expect(runInWorker(() => JSON.parse('{'), null)).rejects.toThrow(/JSON/);
  });

  it('turns running out of its heap ceiling into a ToolError instead of crashing the process', async () => {
    const hog = runInWorker(
      () => {
        const keep: string[] = [];
        for (;;) keep.push('x'.repeat(1024) + keep.length);
      },
      null,
      { maxHeapMb: 16 },
    );
    await expect(hog).rejects.toBeInstanceOf(ToolError);
  });
});
