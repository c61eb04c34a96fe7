import { describe, it, expect } from 'vitest';
import { layoutGraph } from './graph.js';

describe('layoutGraph', () => {
  it('keeps a straight history in one lane', () => {
    const graph = layoutGraph([
      { commit: 'c', parents: ['b'] },
      { commit: 'b', parents: ['a'] },
      { commit: 'a', parents: [] },
    ]);
    expect(graph.width).toBe(1);
    expect(graph.nodes.map((n) => n.x)).toEqual([0, 0, 0]);
    expect(graph.edges).toEqual([
      { x1: 0, y1: 0, x2: 0, y2: 1, lane: 0 },
      { x1: 0, y1: 1, x2: 0, y2: 2, lane: 0 },
    ]);
  });

  it('opens a lane for a merged branch and closes it where the branch forked', () => {
    // m merges f2 into c3; f1 and c3 both come from base.
    const graph = layoutGraph([
      { commit: 'm', parents: ['c3', 'f2'] },
      { commit: 'c3', parents: ['base'] },
      { commit: 'f2', parents: ['f1'] },
      { commit: 'f1', parents: ['base'] },
      { commit: 'base', parents: [] },
    ]);
    expect(graph.nodes.map((n) => n.x)).toEqual([0, 0, 1, 1, 0]);
    expect(graph.width).toBe(2);
    // The merge edge goes from the merge (lane 0) to lane 1; f1 joins base back in lane 0.
    expect(graph.edges).toContainEqual({ x1: 0, y1: 0, x2: 1, y2: 1, lane: 1 });
    expect(graph.edges).toContainEqual({ x1: 1, y1: 3, x2: 0, y2: 4, lane: 1 });
  });

  it('runs lanes of parents not loaded yet off the bottom', () => {
    const graph = layoutGraph([{ commit: 'b', parents: ['a'] }]);
    expect(graph.edges).toEqual([{ x1: 0, y1: 0, x2: 0, y2: 0.5, lane: 0 }]);
  });
});
