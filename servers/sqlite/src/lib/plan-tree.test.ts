import { describe, expect, it } from 'vitest';
import { planTree, renderPlan } from './plan-tree.js';

describe('planTree', () => {
  it('nests EXPLAIN QUERY PLAN rows by parent and renders them as the shell does', () => {
    const tree = planTree([
      { id: 2, parent: 0, detail: 'SCAN a' },
      { id: 4, parent: 0, detail: 'CORRELATED SCALAR SUBQUERY 1' },
      { id: 7, parent: 4, detail: 'SEARCH b USING INDEX b_a (a=?)' },
    ]);
    expect(tree).toEqual([
      { detail: 'SCAN a', children: [] },
      { detail: 'CORRELATED SCALAR SUBQUERY 1', children: [{ detail: 'SEARCH b USING INDEX b_a (a=?)', children: [] }] },
    ]);
    expect(renderPlan(tree)).toBe('|--SCAN a\n`--CORRELATED SCALAR SUBQUERY 1\n   `--SEARCH b USING INDEX b_a (a=?)');
  });
});
