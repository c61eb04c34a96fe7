import { describe, expect, it } from 'vitest';
import { createTimeSlicer } from './time-slice.js';

// Counted in slices of work between two turns of the event loop, not in milliseconds, so
// that a slow or busy machine changes nothing.
describe('time slices', () => {
  it('of concurrent work share each turn of the event loop, and resume in the order they paused', async () => {
    let sinceTurn = 0;
    let most = 0;
    let observing = true;
    const observe = () => {
      most = Math.max(most, sinceTurn);
      sinceTurn = 0;
      if (observing) setImmediate(observe);
    };
    setImmediate(observe);
    const resumed: number[] = [];
    const work = async (id: number) => {
      const slicer = createTimeSlicer(undefined, 2);
      for (let slice = 0; slice < 4; slice++) {
        let worked = false;
        while (!slicer.due()) worked = true; // busy, as a walk is between its checks
        if (worked) sinceTurn++;
        await slicer.pause();
        resumed.push(id);
      }
    };
    // 20 pieces of work, each in 2 ms slices: with a slice each per turn, every turn ran 20.
    await Promise.all(Array.from({ length: 20 }, (_, id) => work(id)));
    observing = false;
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2);
    // First come first served: each round resumes every piece once, in the same order.
    const rounds = Array.from({ length: 4 }, (_, round) => resumed.slice(round * 20, round * 20 + 20));
    for (const round of rounds) expect(round).toEqual(rounds[0]);
    expect([...rounds[0]].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, id) => id));
  });

  it('a pause cancelled while it waits for its turn ends at once, and the others go on', async () => {
    const hog = createTimeSlicer(undefined, 1);
    const controller = new AbortController();
    const cancelled = createTimeSlicer(controller.signal, 1);
    const other = createTimeSlicer(undefined, 1);
    const waits = [hog.pause(), cancelled.pause(), other.pause()];
    controller.abort(new Error('the client cancelled'));
    await expect(waits[1]).rejects.toThrow('the client cancelled');
    await Promise.all([waits[0], waits[2]]);
  });
});
