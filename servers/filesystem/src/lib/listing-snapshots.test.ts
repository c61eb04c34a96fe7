import { describe, expect, it } from 'vitest';
import { createListingSnapshots } from './listing-snapshots.js';

describe('listing snapshots (issue 21, item 10)', () => {
  it('gives a snapshot back only to its owner, and forgets it after its time to live', () => {
    let time = 0;
    const snapshots = createListingSnapshots<number>({ ttlMs: 1000, now: () => time });
    const id = snapshots.put('session-a', [1, 2, 3], { total: 6 })!;
    expect(snapshots.get('session-a', id)).toEqual({ items: [1, 2, 3], extra: { total: 6 } });
    expect(snapshots.get('session-b', id)).toBeUndefined();
    time = 900;
    expect(snapshots.get('session-a', id)).toBeDefined(); // a use renews it
    time = 1800;
    expect(snapshots.get('session-a', id)).toBeDefined();
    time = 2900;
    expect(snapshots.get('session-a', id)).toBeUndefined();
    expect(snapshots.size()).toEqual({ snapshots: 0, items: 0 });
  });

  it('holds at most maxSnapshots and maxItems, dropping the least recently used', () => {
    const snapshots = createListingSnapshots<number>({ maxSnapshots: 3, maxItems: 10 });
    const a = snapshots.put('s', [1, 2, 3], null)!;
    const b = snapshots.put('s', [1, 2, 3], null)!;
    const c = snapshots.put('s', [1, 2, 3], null)!;
    snapshots.get('s', a); // a is now the most recently used
    const d = snapshots.put('s', [1, 2, 3], null)!;
    expect(snapshots.get('s', b)).toBeUndefined();
    expect([a, c, d].every((id) => snapshots.get('s', id) !== undefined)).toBe(true);
    snapshots.put('s', [1, 2, 3, 4, 5, 6], null);
    expect(snapshots.size().items).toBeLessThanOrEqual(10);
    expect(snapshots.put('s', Array.from({ length: 11 }, (_, i) => i), null)).toBeUndefined();
  });
});
