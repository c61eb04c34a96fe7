// Small measuring helpers: medians, /proc memory figures, and timing a command to exit.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** A measured figure, or why it could not be measured. */
export type Sample =
  | { ok: true; median: number; runs: number[]; extra?: Record<string, unknown> }
  | { ok: false; reason: string };

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function sample(runs: number[], extra?: Record<string, unknown>): Sample {
  return { ok: true, median: median(runs), runs: runs.map((r) => round(r)), extra };
}

export function failed(reason: unknown): Sample {
  const text = reason instanceof Error ? reason.message : String(reason);
  return { ok: false, reason: text.split('\n')[0].slice(0, 300) };
}

export function round(n: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** VmRSS or VmHWM (peak) of a process, in MB (2^20 bytes); undefined off Linux. */
export function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface CommandRun {
  ms: number;
  bytes: number;
  lines: number;
  code: number | null;
}

/** Runs a command to exit, timing spawn to exit and counting its output. */
export function timeCommand(command: string, args: readonly string[]): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) lines++;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - started, bytes, lines, code }));
  });
}
