// Lanes of a commit graph, newest first: each commit sits in a lane; its first parent
// continues the lane, other parents (merges) open or join lanes; lanes whose commit was
// already placed close. The result is drawn as one SVG beside the rows.
export interface GraphCommit {
  commit: string;
  parents: string[];
}

export interface Graph {
  nodes: { x: number; y: number }[];
  /** From (x1, y1) to (x2, y2), in lanes and rows; y2 may be a half row past the last. */
  edges: { x1: number; y1: number; x2: number; y2: number; lane: number }[];
  width: number;
}

export function layoutGraph(commits: readonly GraphCommit[]): Graph {
  const lanes: (string | null)[] = [];
  let pending: { fromX: number; lane: number }[] = [];
  const nodes: Graph['nodes'] = [];
  const edges: Graph['edges'] = [];
  let width = 1;
  const free = () => {
    const index = lanes.indexOf(null);
    return index < 0 ? lanes.length : index;
  };
  commits.forEach((c, y) => {
    let col = lanes.indexOf(c.commit);
    if (col < 0) {
      col = free();
      lanes[col] = c.commit;
    }
    for (const p of pending) edges.push({ x1: p.fromX, y1: y - 1, x2: lanes[p.lane] === c.commit ? col : p.lane, y2: y, lane: p.lane });
    lanes.forEach((sha, k) => {
      if (k !== col && sha === c.commit) lanes[k] = null;
    });
    const through = lanes.map((sha, k) => k !== col && sha !== null);
    const [first, ...rest] = c.parents;
    lanes[col] = first ?? null;
    const merges: number[] = [];
    for (const parent of rest) {
      let k = lanes.indexOf(parent);
      if (k < 0) {
        k = free();
        lanes[k] = parent;
      }
      merges.push(k);
    }
    pending = [];
    lanes.forEach((sha, k) => {
      if (sha === null) return;
      if (k === col) pending.push({ fromX: col, lane: k });
      else if (through[k]) pending.push({ fromX: k, lane: k });
    });
    for (const k of merges) if (k !== col) pending.push({ fromX: col, lane: k });
    nodes.push({ x: col, y });
    while (lanes.length && lanes[lanes.length - 1] === null) lanes.pop();
    width = Math.max(width, lanes.length, col + 1);
  });
  // Parents not loaded yet: their lanes run off the bottom.
  for (const p of pending) edges.push({ x1: p.fromX, y1: commits.length - 1, x2: p.lane, y2: commits.length - 0.5, lane: p.lane });
  return { nodes, edges, width };
}
