// Per-process figures: cold start (spawn to the initialize response), idle memory about a
// second later, and the round trip of a trivial tool call.
import { interleave, serverRunner } from './interleave.js';
import type { Maker } from './interleave.js';
import { start } from './servers.js';
import type { Launch } from './servers.js';
import type { StdioServer } from './stdio-driver.js';
import { failed, memoryMb, sample, sleep } from './stats.js';
import type { Sample } from './stats.js';

export interface StartupSamples {
  coldStart: Sample;
  idleRss: Sample;
}

/**
 * Cold start and idle RSS of several servers, launches interleaved so that drift in the
 * machine's load hits them all alike. One untimed launch each first warms the disk cache.
 */
export async function measureStartup(launches: Launch[], runs: number, idleMs = 1000): Promise<StartupSamples[]> {
  const cold: number[][] = launches.map(() => []);
  const rss: number[][] = launches.map(() => []);
  const errors: Array<unknown> = launches.map(() => undefined);
  for (let run = -1; run < runs; run++) {
    for (const [i, launch] of launches.entries()) {
      if (errors[i] !== undefined) continue;
      let server: StdioServer | undefined;
      try {
        server = start(launch);
        const ms = await server.initialize();
        if (run < 0) continue;
        cold[i].push(ms);
        await sleep(idleMs);
        const mb = memoryMb(server.pid);
        if (mb !== undefined) rss[i].push(mb);
      } catch (err) {
        errors[i] = err;
      } finally {
        await server?.close();
      }
    }
  }
  return launches.map((_, i) => {
    if (errors[i] !== undefined) return { coldStart: failed(errors[i]), idleRss: failed(errors[i]) };
    return {
      coldStart: sample(cold[i]),
      idleRss: rss[i].length ? sample(rss[i]) : failed('no /proc/<pid>/status (not Linux?)'),
    };
  });
}

export interface ToolCall {
  launch: Launch;
  tool: string;
  args: Record<string, unknown>;
}

/** Median latency of `calls` calls of a trivial tool per server, calls alternating between servers. */
export function measureRoundTrip(contenders: Array<ToolCall | { unavailable: string }>, calls: number): Promise<Sample[]> {
  const makers: Maker[] = contenders.map((c) =>
    'unavailable' in c
      ? c
      : () => serverRunner(c.launch, c.tool, async (server) => ({ ms: (await server.callTool(c.tool, c.args)).ms })),
  );
  return interleave(makers, { runs: calls, warmups: 20, summarize: true });
}
