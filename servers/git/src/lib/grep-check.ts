import { loadRE2JS, openWorkerChannel, type RE2JSClass, type WorkerChannel } from '@mcp-reference/shared/core';
import { DEFAULT_TIMEOUT_MS, type StreamFlow } from './git-runner.js';
import { LINE_WINDOW_BYTES, type GrepRowReader } from './grep-rows.js';
import { PatternError } from './ere.js';

/**
 * Candidate lines of a regex `git_grep` (the lines `git grep -F` found holding the pattern's
 * required text, or every line), matched with RE2 on a worker thread of the process's pool:
 * linear in each line whatever the pattern, and stopped at any instruction by cancellation
 * or the time limit. Lines go to the worker in batches, in git's order; while more than a
 * few batches wait, git's output is paused, so memory stays bounded however much git finds.
 */

/** Bytes of lines per request to the worker. */
const BATCH_BYTES = 512 * 1024;
/** Bytes sent and not yet answered before git's output is paused. */
const MAX_IN_FLIGHT_BYTES = 4 * 1024 * 1024;
/** A line longer than this is matched in its first this-many bytes only (the answer says which). */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

interface CheckInit {
  source: string;
  flags: number;
  /** Bytes of a line an answer shows whole. */
  wholeUpTo: number;
}

interface CheckRequest {
  /** Lines, each followed by a newline. */
  bytes: Uint8Array;
}

/**
 * Runs in the worker (sent as source text: self-contained). Answers, per line, the 1-based
 * byte of its first match, or 0. Where the match starts matters only for a line longer than
 * the kilobyte an answer shows of it (grep-rows.ts), so only there is it worked out (RE2's
 * `test` is several times faster than a `find` that reports where).
 */
const lineMatcher = (init: CheckInit, RE2JS: RE2JSClass) => {
  const re = RE2JS.compile(init.source, init.flags);
  const decoder = new TextDecoder();
  return (request: CheckRequest): number[] => {
    const lines = decoder.decode(request.bytes).split('\n');
    lines.pop();
    return lines.map((text) => {
      if (!re.test(text)) return 0;
      if (text.length <= init.wholeUpTo / 3) return 1;
      const matcher = re.matcher(text);
      return matcher.find() ? Buffer.byteLength(text.slice(0, matcher.start())) + 1 : 1;
    });
  };
};

/** re2js flag bits for an RE2 pattern, compiled once here so a pattern RE2 refuses is told at once. */
export function compileForCheck(source: string, pattern: string, ignoreCase: boolean): number {
  const RE2JS = loadRE2JS();
  const flags = ignoreCase ? RE2JS.CASE_INSENSITIVE : 0;
  try {
    RE2JS.compile(source, flags);
  } catch (error) {
    throw new PatternError(`The pattern ${JSON.stringify(pattern)} cannot be matched in linear time: ${(error as Error).message}.`);
  }
  return flags;
}

/** Lines sent to the worker together: their bytes, each followed by a newline, and where each is. */
class Batch {
  readonly paths: string[] = [];
  readonly lines: number[] = [];
  readonly starts: number[] = [];
  readonly cuts: boolean[] = [];
  used = 0;
  constructor(readonly bytes: Buffer) {}
  text(i: number): Buffer {
    return this.bytes.subarray(this.starts[i], (this.starts[i + 1] ?? this.used) - 1);
  }
}

export class LineChecker {
  /** Lines longer than MAX_LINE_BYTES, matched in their first MAX_LINE_BYTES only. */
  readonly partlySearched: { path: string; line: number }[] = [];
  private batch = new Batch(Buffer.allocUnsafe(BATCH_BYTES));
  private inFlight = 0;
  private flow: StreamFlow | undefined;
  private paused = false;
  private tail: Promise<void> = Promise.resolve();
  private failure: unknown;

  private constructor(
    private readonly channel: WorkerChannel<CheckRequest, number[]>,
    private readonly rows: GrepRowReader,
  ) {}

  /** A worker ready to match `source` (RE2 syntax, `flags` from compileForCheck) for `rows`. */
  static async open(source: string, flags: number, rows: GrepRowReader, signal?: AbortSignal): Promise<LineChecker> {
    const channel = await openWorkerChannel(lineMatcher, { source, flags, wholeUpTo: LINE_WINDOW_BYTES }, {
      re2js: true,
      signal,
      timeoutMs: DEFAULT_TIMEOUT_MS,
      timeoutMessage: `Matching the pattern took longer than ${DEFAULT_TIMEOUT_MS / 1000} s and was stopped. Narrow the search (a pathspec, a longer literal part in the pattern).`,
      maxHeapMb: 128,
    });
    return new LineChecker(channel, rows);
  }

  /** The reader's `onChunk`: git's output, with the flow control that holds git back while lines wait. */
  push(chunk: Buffer, flow: StreamFlow): boolean {
    this.flow = flow;
    return this.rows.push(chunk) || this.failure !== undefined;
  }

  /** The reader's `onLine`: the line, `bytes[start, end)`, is copied into the batch. */
  add(path: string, line: number, bytes: Buffer, start: number, end: number, cut: boolean): void {
    if (cut) this.partlySearched.push({ path, line });
    const length = end - start;
    if (this.batch.used + length + 1 > this.batch.bytes.length) {
      this.send();
      if (length + 1 > this.batch.bytes.length) this.batch = new Batch(Buffer.allocUnsafe(length + 1));
    }
    const batch = this.batch;
    batch.paths.push(path);
    batch.lines.push(line);
    batch.starts.push(batch.used);
    batch.cuts.push(cut);
    batch.used += bytes.copy(batch.bytes, batch.used, start, end);
    batch.bytes[batch.used++] = 0x0a;
  }

  /** Matches what is left and waits for every answer; throws what stopped the matching. */
  async finish(): Promise<void> {
    this.send();
    await this.tail;
    this.channel.close();
    if (this.failure !== undefined) throw this.failure;
  }

  close(): void {
    this.channel.close();
  }

  private send(): void {
    const batch = this.batch;
    if (batch.used === 0) return;
    this.batch = new Batch(Buffer.allocUnsafe(BATCH_BYTES));
    const bytes = batch.used;
    this.inFlight += bytes;
    if (this.inFlight > MAX_IN_FLIGHT_BYTES && !this.paused) {
      this.paused = true;
      this.flow?.pause();
    }
    const answer = this.channel.request({ bytes: batch.bytes.subarray(0, bytes) });
    // Taken in turn below; a failure before its turn is not an unhandled rejection meanwhile.
    answer.catch(() => undefined);
    // Answers are taken in the order the lines came, whatever order they arrive in.
    this.tail = this.tail.then(async () => {
      try {
        const columns = await answer;
        if (this.failure === undefined) {
          columns.forEach((column, i) => {
            if (column > 0) this.rows.addMatch(batch.paths[i], batch.lines[i], batch.text(i), column, batch.cuts[i]);
          });
        }
      } catch (error) {
        this.failure ??= error;
      } finally {
        this.inFlight -= bytes;
        // Resumed when the worker has caught up, or to let git be stopped (the next chunk says so).
        if (this.paused && (this.inFlight <= MAX_IN_FLIGHT_BYTES / 2 || this.rows.full || this.failure !== undefined)) {
          this.paused = false;
          this.flow?.resume();
        }
      }
    });
  }
}
