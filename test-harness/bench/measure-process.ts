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

/**
 * RSS of each server `settleMs` after its initialize, all launched at once and left idle:
 * what a client that keeps a server open all day holds. V8 gives memory back only some
 * seconds after start-up work ends (its memory reducer), which the 1 s figure is too early for.
 */
export async function measureSettledRss(launches: Launch[], settleMs = 12_000): Promise<Sample[]> {
  const servers = launches.map((launch) => start(launch));
  try {
    const started = await Promise.allSettled(servers.map((server) => server.initialize()));
    await sleep(settleMs);
    return servers.map((server, i) => {
      const outcome = started[i];
      if (outcome.status === 'rejected') return failed(outcome.reason);
      const mb = memoryMb(server.pid);
      return mb === undefined ? failed('no /proc/<pid>/status (not Linux?)') : sample([mb]);
    });
  } finally {
    await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
  }
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
