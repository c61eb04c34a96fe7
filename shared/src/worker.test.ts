import { describe, expect, it } from 'vitest';
import { createWorkerPool, runInWorker, sharedWorkerPool, WorkerPoolBusyError } from './worker.js';
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

// Issue 21 item 5: 64 concurrent greps started 75 threads and 525 MB. One pool per
// process, sized to the cores, with a queue.
describe('the worker pool', () => {
  const spin = (ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end);
    return ms;
  };

  it('runs 64 concurrent tasks on at most `size` threads, reusing them', async () => {
    const pool = createWorkerPool({ size: 2 });
    try {
      let peak = 0;
      const tasks = Array.from({ length: 64 }, (_, i) =>
        pool.run((n: number) => n * 2, i).finally(() => (peak = Math.max(peak, pool.stats().workers))),
      );
      expect(pool.stats().queued).toBe(62);
      expect(await Promise.all(tasks)).toEqual(Array.from({ length: 64 }, (_, i) => i * 2));
      expect(peak).toBeLessThanOrEqual(2);
      expect(pool.stats().started).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('removes queued work whose signal aborts, without running it', async () => {
    const pool = createWorkerPool({ size: 1 });
    try {
      const running = pool.run(spin, 300);
      const controller = new AbortController();
      const queued = pool.run(() => 'ran', null, { signal: controller.signal });
      expect(pool.stats().queued).toBe(1);
      controller.abort(new Error('cancelled while queued'));
      await expect(queued).rejects.toThrow('cancelled while queued');
      expect(pool.stats().queued).toBe(0);
      expect(await running).toBe(300);
    } finally {
      await pool.close();
    }
  });

  it('replaces a terminated runaway, and the queue moves on', async () => {
    const pool = createWorkerPool({ size: 1 });
    try {
      const runaway = pool.run(() => {
        for (;;);
      }, null, { timeoutMs: 200, timeoutMessage: 'stopped' });
      const next = pool.run((x: string) => `${x}!`, 'after');
      await expect(runaway).rejects.toThrow('stopped');
      expect(await next).toBe('after!');
      expect(pool.stats()).toMatchObject({ workers: 1, started: 2 });
    } finally {
      await pool.close();
    }
  });

  it('says when no worker is idle, for work that must not wait', async () => {
    const pool = createWorkerPool({ size: 1 });
    try {
      const running = pool.run(spin, 200);
      await expect(pool.run(() => 1, null, { onlyIfIdle: true })).rejects.toBeInstanceOf(WorkerPoolBusyError);
      await running;
      expect(await pool.run(() => 1, null, { onlyIfIdle: true })).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('is one pool per process behind runInWorker', async () => {
    const pool = sharedWorkerPool();
    expect(sharedWorkerPool()).toBe(pool);
    const before = pool.stats().started;
    await Promise.all(Array.from({ length: 16 }, (_, i) => runInWorker((n: number) => n, i)));
    expect(pool.stats().started - before).toBeLessThanOrEqual(pool.size);
  });
});
