import { describe, expect, it } from 'vitest';
import { createByteBudget } from './byte-budget.js';

describe('byte budget (issue 21, item 6)', () => {
  it('never has more than its limit in flight, and serves every waiter in turn', async () => {
    const budget = createByteBudget(8 * 1024 * 1024);
    let done = 0;
    await Promise.all(
      Array.from({ length: 60 }, async () => {
        const release = await budget.reserve(2 * 1024 * 1024 + 1);
        expect(budget.inFlight()).toBeLessThanOrEqual(8 * 1024 * 1024);
        await new Promise((resolve) => setTimeout(resolve, 1));
        release();
        release(); // a second release gives nothing back twice
        done++;
      }),
    );
    expect(done).toBe(60);
    expect(budget.peak()).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(budget.peak()).toBeGreaterThan(4 * 1024 * 1024);
    expect(budget.inFlight()).toBe(0);
  });

  it('lets a reservation larger than the whole budget run alone', async () => {
    const budget = createByteBudget(1000);
    const release = await budget.reserve(5000);
    expect(budget.inFlight()).toBe(1000);
    let second = false;
    const next = budget.reserve(10).then((r) => ((second = true), r));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(second).toBe(false);
    release();
    (await next)();
    expect(second).toBe(true);
  });
});
