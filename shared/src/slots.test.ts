import { describe, expect, it } from 'vitest';
import { childProcessSlots, createSlots, defaultProcessSlotCount } from './slots.js';

describe('slots', () => {
  it('lets `size` run at once and the rest wait their turn, first come first served', async () => {
    const slots = createSlots(2);
    const order: number[] = [];
    const releases = await Promise.all([slots.acquire(), slots.acquire()]);
    const waiting = [3, 4, 5].map((n) => slots.acquire().then((release) => (order.push(n), release)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(slots.stats()).toEqual({ running: 2, waiting: 3, size: 2 });
    expect(order).toEqual([]);
    releases[0]();
    releases[0](); // twice: gives back one slot, not two
    const third = await waiting[0];
    expect(order).toEqual([3]);
    expect(slots.stats()).toEqual({ running: 2, waiting: 2, size: 2 });
    third();
    releases[1]();
    for (const release of await Promise.all(waiting.slice(1))) release();
    expect(order).toEqual([3, 4, 5]);
    expect(slots.stats()).toEqual({ running: 0, waiting: 0, size: 2 });
  });

  it('a wait that is cancelled leaves the queue, starts nothing, and the next one gets the slot', async () => {
    const slots = createSlots(1);
    const first = await slots.acquire();
    const controller = new AbortController();
    const cancelled = slots.acquire(controller.signal);
    const next = slots.acquire();
    controller.abort(new Error('cancelled by the client'));
    await expect(cancelled).rejects.toThrow('cancelled by the client');
    expect(slots.stats().waiting).toBe(1);
    first();
    (await next)();
    expect(slots.stats()).toEqual({ running: 0, waiting: 0, size: 1 });
    await expect(slots.acquire(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
    expect(slots.stats().running).toBe(0);
  });

  it('the child processes of the process have one set, of four a core and at least eight', () => {
    expect(childProcessSlots()).toBe(childProcessSlots());
    expect(childProcessSlots().stats().size).toBe(defaultProcessSlotCount());
    expect(defaultProcessSlotCount()).toBeGreaterThanOrEqual(8);
  });
});
