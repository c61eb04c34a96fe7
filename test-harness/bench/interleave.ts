// Runs the contenders of one comparison turn by turn (ours, official, find, ours, ...) so
// that a burst of load on the machine hits them alike and their ratio stays meaningful.
import { start } from './servers.js';
import type { Launch } from './servers.js';
import type { StdioServer } from './stdio-driver.js';
import { failed, memoryMb, sample, timeCommand } from './stats.js';
import type { Sample } from './stats.js';

export interface Timed {
  ms: number;
  extra?: Record<string, unknown>;
}

export interface Runner {
  run(): Promise<Timed>;
  /** Releases the contender; returns figures about the whole session (e.g. peak RSS). */
  finish(): Promise<Record<string, unknown>>;
}

/** A contender that is a started, initialized server offering `tool`. */
export async function serverRunner(
  launch: Launch,
  tool: string,
  op: (server: StdioServer) => Promise<Timed>,
): Promise<Runner> {
  const server = start(launch);
  try {
    await server.initialize();
    const tools = await server.listTools();
    if (!tools.includes(tool)) throw new Error(`no ${tool} tool`);
  } catch (err) {
    await server.close();
    throw err;
  }
  return {
    run: () => op(server),
    async finish() {
      const peakRssMb = memoryMb(server.pid, 'VmHWM');
      await server.close();
      return peakRssMb === undefined ? {} : { peakRssMb };
    },
  };
}

/** A contender that is a command run to exit; one untimed run warms the OS caches. */
/** `okCodes`: exit codes that are answers (1 for a grep that found nothing). */
export async function commandRunner(command: string, args: string[], okCodes: readonly number[] = [0]): Promise<Runner> {
  const once = async (): Promise<Timed> => {
    const run = await timeCommand(command, args);
    if (!okCodes.includes(run.code ?? -1)) throw new Error(`${command} exited with ${run.code}`);
    return { ms: run.ms, extra: { outputBytes: run.bytes, lines: run.lines } };
  };
  await once();
  return { run: once, finish: async () => ({}) };
}

/** A way to start a contender, or the reason it is not available. */
export type Maker = (() => Promise<Runner>) | { unavailable: string };

export interface InterleaveOptions {
  runs: number;
  warmups?: number;
  /** Keep only the median and spread, not every run (for hundreds of calls). */
  summarize?: boolean;
}

export async function interleave(makers: Maker[], opts: InterleaveOptions): Promise<Sample[]> {
  const runners: Array<Runner | undefined> = [];
  const errors: Array<unknown> = [];
  for (const make of makers) {
    if (typeof make !== 'function') {
      runners.push(undefined);
      errors.push(make.unavailable);
      continue;
    }
    try {
      runners.push(await make());
      errors.push(undefined);
    } catch (err) {
      runners.push(undefined);
      errors.push(err);
    }
  }
  const times: number[][] = makers.map(() => []);
  const extras: Array<Record<string, unknown>> = makers.map(() => ({}));
  const finished: Array<Record<string, unknown>> = makers.map(() => ({}));
  for (let i = -(opts.warmups ?? 0); i < opts.runs; i++) {
    for (const [k, runner] of runners.entries()) {
      if (!runner || errors[k] !== undefined) continue;
      try {
        const timed = await runner.run();
        if (i >= 0) times[k].push(timed.ms);
        extras[k] = timed.extra ?? {};
      } catch (err) {
        errors[k] = err;
      }
    }
  }
  for (const [k, runner] of runners.entries()) {
    if (runner) finished[k] = await runner.finish().catch(() => ({}));
  }
  return makers.map((_, k) => {
    if (errors[k] !== undefined) return failed(errors[k]);
    const extra = { ...extras[k], ...finished[k] };
    if (!opts.summarize) return sample(times[k], extra);
    const sorted = [...times[k]].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
    const s = sample(times[k], { ...extra, calls: sorted.length, p10: at(0.1), p90: at(0.9) });
    return s.ok ? { ...s, runs: [] } : s;
  });
}
