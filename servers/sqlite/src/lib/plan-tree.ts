// EXPLAIN QUERY PLAN answers rows (id, parent, detail); this makes them a tree.

export interface PlanStep {
  id: number;
  parent: number;
  detail: string;
}

export interface PlanNode {
  detail: string;
  children: PlanNode[];
}

export function planTree(steps: readonly PlanStep[]): PlanNode[] {
  const nodes = new Map<number, PlanNode>();
  const roots: PlanNode[] = [];
  for (const step of steps) {
    const node: PlanNode = { detail: step.detail, children: [] };
    nodes.set(step.id, node);
    const parent = nodes.get(step.parent);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** The tree as the sqlite3 shell prints it. */
export function renderPlan(nodes: readonly PlanNode[], indent = ''): string {
  return nodes
    .map((node, i) => {
      const last = i === nodes.length - 1;
      const line = `${indent}${last ? '`--' : '|--'}${node.detail}`;
      const below = renderPlan(node.children, `${indent}${last ? '   ' : '|  '}`);
      return below ? `${line}\n${below}` : line;
    })
    .join('\n');
}
