/**
 * A git-style unified diff of two texts, line by line (Myers' O(ND) algorithm):
 *
 *   --- a/src/app.ts
 *   +++ b/src/app.ts
 *   @@ -10,7 +10,8 @@
 *
 * with 3 lines of context and "\\ No newline at end of file" markers, so the output
 * applies with `git apply` / `patch -p1`. Returns '' when the texts are equal.
 *
 * Pass a path relative to the project for `displayPath`; a leading "/" is dropped so an
 * absolute path still yields a well-formed `a/...` header.
 *
 * Lines are compared with their endings, so a line whose only change is "\r\n" to "\n"
 * shows as removed and added; the output itself uses "\n" (a "\r" before it is not shown).
 */
export function unifiedDiff(oldText: string, newText: string, displayPath = 'file', context = 3): string {
  if (oldText === newText) return '';
  return format(diffLines(splitLines(oldText), splitLines(newText)), displayPath, context);
}

/** A span that differs between two texts; outside the spans, the texts are equal. */
export interface ChangedRegion {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/**
 * The same diff when the caller knows where the texts differ (edit_file does): only the
 * lines around `regions` (sorted, not overlapping, offsets into each text) are compared,
 * so the cost follows the size of the changes, not of the file.
 */
export function* unifiedDiffOfRegions(
  oldText: string,
  newText: string,
  regions: readonly ChangedRegion[],
  displayPath = 'file',
  context = 3,
): Generator<void, string> {
  if (oldText === newText) return '';
  const blocks: ChangedRegion[] = [];
  for (const region of regions) {
    // Widen to whole lines: back to the line start, on past the next "\n". The bytes
    // around a region are the same in both texts, so both sides widen alike.
    const before = region.oldStart - (oldText.lastIndexOf('\n', region.oldStart - 1) + 1);
    const next = oldText.indexOf('\n', region.oldEnd);
    const after = (next === -1 ? oldText.length : next + 1) - region.oldEnd;
    const block = {
      oldStart: region.oldStart - before,
      oldEnd: region.oldEnd + after,
      newStart: region.newStart - before,
      newEnd: region.newEnd + after,
    };
    const last = blocks[blocks.length - 1];
    if (last !== undefined && last.oldEnd >= block.oldStart) {
      last.oldEnd = Math.max(last.oldEnd, block.oldEnd);
      last.newEnd = Math.max(last.newEnd, block.newEnd);
    } else {
      blocks.push(block);
    }
  }
  // Only the changed lines and their context become ops; each run of blocks closer than
  // 2 * context lines is one segment, cut into hunks as a whole-text diff would cut it.
  const out = [`--- a/${displayPath.replace(/^\/+/, '')}`, `+++ b/${displayPath.replace(/^\/+/, '')}`];
  let segment: DiffOp[] | undefined;
  let segmentOld = 0;
  let segmentNew = 0;
  const flush = () => {
    if (segment !== undefined) for (const hunk of hunks(segment, context, segmentOld, segmentNew)) writeHunk(out, hunk);
    segment = undefined;
  };
  let oldLines = 0;
  let newLines = 0;
  let position = 0;
  for (let b = 0; b <= blocks.length; b++) {
    const block = blocks[b];
    const gap = gapLines(oldText, position, block === undefined ? oldText.length : block.oldStart, context);
    if (segment !== undefined && gap.count <= 2 * context) {
      for (const line of gap.head) segment.push({ kind: ' ', line });
    } else {
      if (segment !== undefined) {
        for (const line of gap.head.slice(0, context)) segment.push({ kind: ' ', line });
        flush();
      }
      if (block !== undefined) {
        const lead = gap.tail.length;
        segment = gap.tail.map((line): DiffOp => ({ kind: ' ', line }));
        segmentOld = oldLines + gap.count - lead;
        segmentNew = newLines + gap.count - lead;
      }
    }
    oldLines += gap.count;
    newLines += gap.count;
    if (block === undefined) break;
    const changed = yield* diffLinesSteps(
      splitLines(oldText.slice(block.oldStart, block.oldEnd)),
      splitLines(newText.slice(block.newStart, block.newEnd)),
    );
    for (const op of changed) {
      segment!.push(op);
      if (op.kind !== '+') oldLines++;
      if (op.kind !== '-') newLines++;
    }
    position = block.oldEnd;
    yield;
  }
  flush();
  return out.length === 2 ? '' : out.join('\n') + '\n';
}

/**
 * The whole lines of text[from, to): how many, and the first `context * 2 + 1` and last
 * `context` of them (all of them when there are that few), without splitting the rest.
 */
function gapLines(text: string, from: number, to: number, context: number): { count: number; head: string[]; tail: string[] } {
  const head: string[] = [];
  let count = 0;
  let start = from;
  let lastStarts: number[] = [];
  while (start < to) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 || newline >= to ? to : newline + 1;
    if (head.length <= 2 * context) head.push(text.slice(start, end));
    lastStarts.push(start);
    if (lastStarts.length > 2 * context) lastStarts = lastStarts.slice(-context);
    count++;
    start = end;
  }
  if (count <= 2 * context) return { count, head, tail: head.slice(Math.max(0, count - context)) };
  const tail = lastStarts.slice(-context).map((begin, i, starts) => text.slice(begin, i + 1 < starts.length ? starts[i + 1] : to));
  return { count, head, tail };
}

function format(ops: readonly DiffOp[], displayPath: string, context: number): string {
  const name = displayPath.replace(/^\/+/, '');
  const out = [`--- a/${name}`, `+++ b/${name}`];
  for (const hunk of hunks(ops, context)) writeHunk(out, hunk);
  if (out.length === 2) return '';
  return out.join('\n') + '\n';
}

function writeHunk(out: string[], hunk: Hunk): void {
  out.push(`@@ -${range(hunk.oldStart, hunk.oldCount)} +${range(hunk.newStart, hunk.newCount)} @@`);
  for (const op of hunk.ops) {
    const line = op.line.endsWith('\r\n') ? op.line.slice(0, -2) : op.line.endsWith('\n') ? op.line.slice(0, -1) : op.line;
    out.push(op.kind + line);
    if (!op.line.endsWith('\n')) out.push('\\ No newline at end of file');
  }
}

export interface DiffOp {
  kind: ' ' | '-' | '+';
  /** The line with its "\n"; only a last line without one lacks it. */
  line: string;
}

/** Lines keep their "\n", so "a" and "a\n" differ and a change of the final newline shows. */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    lines.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

// Beyond this many differing lines, or this much work, the middle is shown as
// removed-then-added: still a correct patch. The distance bounds the O(D^2) memory of the
// search, the work its O((N+M)D) time, so a diff of two large unrelated texts ends soon.
const MAX_EDIT_DISTANCE = 2000;
const MAX_DIFF_WORK = 20_000_000;
/** Work between yields of the generator form. */
const DIFF_STEP = 50_000;

/** The line diff of `a` and `b`, run to the end at once (for small inputs). */
export function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
  const steps = diffLinesSteps(a, b);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The line diff as a generator that yields every so often, so a caller can give the event
 * loop a turn (and stop, if cancelled) while a large diff is computed.
 */
export function* diffLinesSteps(a: readonly string[], b: readonly string[]): Generator<void, DiffOp[]> {
  // Edits are local, so trimming the common ends first leaves Myers a small middle.
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix++;
  }
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  yield;

  // Compare small integers, not strings, in the inner loop.
  const ids = new Map<string, number>();
  const intern = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  const middle =
    (yield* myers(Int32Array.from(midA, intern), Int32Array.from(midB, intern), midA, midB)) ?? [
      ...midA.map((line): DiffOp => ({ kind: '-', line })),
      ...midB.map((line): DiffOp => ({ kind: '+', line })),
    ];
  return [
    ...a.slice(0, prefix).map((line): DiffOp => ({ kind: ' ', line })),
    ...middle,
    ...a.slice(a.length - suffix).map((line): DiffOp => ({ kind: ' ', line })),
  ];
}

function* myers(A: Int32Array, B: Int32Array, linesA: readonly string[], linesB: readonly string[]): Generator<void, DiffOp[] | null> {
  const n = A.length;
  const m = B.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] holds v[-d-1 .. d+1] as it was before round d, for the backtrack.
  const trace: Int32Array[] = [];
  let work = 0;
  let sinceYield = 0;
  for (let d = 0; d <= Math.min(max, MAX_EDIT_DISTANCE); d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      const startX = x;
      while (x < n && y < m && A[x] === B[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m, linesA, linesB);
      const cost = 1 + x - startX;
      work += cost;
      sinceYield += cost;
    }
    if (work > MAX_DIFF_WORK) return null;
    if (sinceYield > DIFF_STEP) {
      sinceYield = 0;
      yield;
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], n: number, m: number, linesA: readonly string[], linesB: readonly string[]): DiffOp[] {
  const ops: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const snapshot = trace[d];
    const at = (k: number): number => snapshot[k + d + 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', line: linesA[--x] });
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: '+', line: linesB[--y] });
      else ops.push({ kind: '-', line: linesA[--x] });
    }
  }
  return ops.reverse();
}

interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  ops: DiffOp[];
}

function hunks(ops: readonly DiffOp[], context: number, oldBase = 0, newBase = 0): Hunk[] {
  const changes: number[] = [];
  ops.forEach((op, i) => {
    if (op.kind !== ' ') changes.push(i);
  });
  const result: Hunk[] = [];
  // Lines of each side before ops[counted], kept as the hunks move forward (linear overall).
  let counted = 0;
  let oldBefore = oldBase;
  let newBefore = newBase;
  let c = 0;
  while (c < changes.length) {
    const begin = Math.max(0, changes[c] - context);
    let end = Math.min(ops.length, changes[c] + 1 + context);
    // Merge changes whose contexts touch or overlap, as git does.
    while (c + 1 < changes.length && changes[c + 1] - context <= end) {
      c++;
      end = Math.min(ops.length, changes[c] + 1 + context);
    }
    c++;
    for (; counted < begin; counted++) {
      if (ops[counted].kind !== '+') oldBefore++;
      if (ops[counted].kind !== '-') newBefore++;
    }
    const slice = ops.slice(begin, end);
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    // An empty side is numbered by the line it follows (git writes -0,0 for a new file).
    result.push({
      oldStart: oldCount === 0 ? oldBefore : oldBefore + 1,
      oldCount,
      newStart: newCount === 0 ? newBefore : newBefore + 1,
      newCount,
      ops: slice,
    });
  }
  return result;
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}

/**
 * A diff cut to at most about `maxBytes` of UTF-8, at a line boundary, with a last line
 * saying how much was left out and `why` ("the file was written in full", say). The cut
 * diff is not a complete patch; `cut` says whether it happened.
 */
export function shortenDiff(diff: string, maxBytes: number, why: string): { diff: string; cut: boolean } {
  if (diff.length * 3 <= maxBytes || Buffer.byteLength(diff) <= maxBytes) return { diff, cut: false };
  const bytes = Buffer.from(diff, 'utf8');
  const newline = bytes.lastIndexOf(0x0a, Math.max(0, maxBytes - 1));
  // Cut at a line end, and so never inside a multi-byte character.
  const kept = bytes.subarray(0, newline === -1 ? 0 : newline + 1).toString('utf8');
  const omitted = bytes.length - (newline + 1);
  return { diff: `${kept}... [diff cut here: ${omitted} more bytes not shown; ${why}]\n`, cut: true };
}
