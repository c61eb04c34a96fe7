// Turns samples into rows (ours, baseline, ratio, target, met?) and writes them out as
// JSON, a markdown table for the README, and a plain-text summary for the terminal.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sample } from './stats.js';
import { round } from './stats.js';

export type Unit = 'ms' | 'MB' | 'count';

/** A server left out of the run, and why. */
export interface Skipped {
  label: string;
  reason: string;
}

/** ratio: ours / baseline at most `max`; below: ours under `max` (in the row's unit). */
export type Target = { kind: 'ratio'; max: number } | { kind: 'below'; max: number } | { kind: 'info' };

/** A number taken from a sample: its median, or one of its extra fields. */
export type Figure = { value: number } | { reason: string };

export function figure(s: Sample | undefined, pick?: (extra: Record<string, unknown>) => unknown, scale = 1): Figure {
  if (!s) return { reason: 'not measured' };
  if (!s.ok) return { reason: s.reason };
  if (!pick) return { value: s.median * scale };
  const v = pick(s.extra ?? {});
  return typeof v === 'number' ? { value: v * scale } : { reason: 'not reported' };
}

export interface RowInput {
  measurement: string;
  unit: Unit;
  ours: Figure;
  baseline: Figure;
  baselineLabel: string;
  target: Target;
  note?: string;
}

export interface Row {
  measurement: string;
  unit: Unit;
  ours: number | null;
  oursNote: string | null;
  baseline: number | null;
  baselineNote: string | null;
  baselineLabel: string;
  ratio: number | null;
  target: string;
  met: boolean | null;
  note: string | null;
}

function targetText(t: Target, unit: Unit): string {
  if (t.kind === 'ratio') return `<= ${t.max}x`;
  if (t.kind === 'below') return `< ${t.max} ${unit}`;
  return '(info)';
}

export function makeRow(input: RowInput): Row {
  const ours = 'value' in input.ours ? input.ours.value : null;
  const baseline = 'value' in input.baseline ? input.baseline.value : null;
  const ratio = ours !== null && baseline !== null && baseline > 0 ? ours / baseline : null;
  let met: boolean | null = null;
  if (input.target.kind === 'ratio' && ratio !== null) met = ratio <= input.target.max;
  if (input.target.kind === 'below' && ours !== null) met = ours < input.target.max;
  return {
    measurement: input.measurement,
    unit: input.unit,
    ours: ours === null ? null : round(ours),
    oursNote: 'reason' in input.ours ? input.ours.reason : null,
    baseline: baseline === null ? null : round(baseline),
    baselineNote: 'reason' in input.baseline ? input.baseline.reason : null,
    baselineLabel: input.baselineLabel,
    ratio: ratio === null ? null : round(ratio, 4),
    target: targetText(input.target, input.unit),
    met,
    note: input.note ?? null,
  };
}

export function formatValue(value: number, unit: Unit): string {
  if (unit === 'MB') return `${value.toFixed(1)} MB`;
  if (unit === 'count') return `${value}`;
  if (value < 10) return `${value.toFixed(2)} ms`;
  if (value < 1000) return `${value.toFixed(1)} ms`;
  return `${(value / 1000).toFixed(2)} s`;
}

function cells(row: Row): string[] {
  const ours = row.ours === null ? 'n/a' : formatValue(row.ours, row.unit);
  const base = row.baseline === null ? 'n/a' : formatValue(row.baseline, row.unit);
  const ratio = row.ratio === null ? '-' : `${row.ratio < 0.1 ? row.ratio.toFixed(3) : row.ratio.toFixed(2)}x`;
  const met = row.met === null ? '-' : row.met ? 'yes' : 'NO';
  return [row.measurement, ours, `${base} (${row.baselineLabel})`, ratio, row.target, met];
}

const HEADER = ['Measurement', 'Ours', 'Baseline', 'Ratio', 'Target', 'Met?'];

export interface Environment {
  date: string;
  node: string;
  platform: string;
  cpus: number;
  cpuModel: string;
  treeFiles: number;
  treeDirs: number;
  bigFileBytes: number;
  runs: number;
  treeRuns: number;
  calls: number;
  durationSeconds?: number;
}

function envLine(env: Environment): string {
  return (
    `${env.date} · Node ${env.node} · ${env.platform} · ${env.cpus} CPU (${env.cpuModel}) · ` +
    `tree of ${env.treeFiles.toLocaleString('en-US')} files in ${env.treeDirs.toLocaleString('en-US')} directories · ` +
    `median of ${env.runs} launches / ${env.treeRuns} tree runs / ${env.calls} calls`
  );
}

/** Notes under the table: skipped servers, then each other reason once with its rows. */
function notesOf(rows: Row[], skipped: Skipped[]): string[] {
  const notes = skipped.map((s) => `${s.label} skipped: ${s.reason}`);
  const byReason = new Map<string, string[]>();
  const add = (reason: string, row: string) => byReason.set(reason, [...(byReason.get(reason) ?? []), row]);
  for (const r of rows) {
    for (const [who, reason] of [['ours', r.oursNote], ['baseline', r.baselineNote]] as const) {
      if (reason && !skipped.some((s) => reason.includes(s.reason))) add(`${who} n/a: ${reason}`, r.measurement);
    }
    if (r.note) add(r.note, r.measurement);
  }
  for (const [reason, names] of byReason) notes.push(`${names.join('; ')}: ${reason}`);
  return notes;
}

export function markdown(rows: Row[], env: Environment, skipped: Skipped[]): string {
  const line = (c: string[]) => `| ${c.join(' | ')} |`;
  const out = [
    line(HEADER),
    line(HEADER.map((_, i) => (i === 0 ? '---' : '---:'))),
    ...rows.map((r) => line(cells(r))),
    '',
    `_${envLine(env)}_`,
  ];
  const notes = notesOf(rows, skipped);
  if (notes.length) out.push('', ...notes.map((n) => `- ${n}`));
  return `${out.join('\n')}\n`;
}

export function text(rows: Row[], env: Environment, skipped: Skipped[]): string {
  const table = [HEADER, ...rows.map(cells)];
  const widths = HEADER.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = [fmt(HEADER), widths.map((w) => '-'.repeat(w)).join('  '), ...table.slice(1).map(fmt), '', envLine(env)];
  const notes = notesOf(rows, skipped);
  if (notes.length) out.push('', 'Notes:', ...notes.map((n) => `  - ${n}`));
  return out.join('\n');
}

export async function writeResults(
  dir: string,
  rows: Row[],
  env: Environment,
  skipped: Skipped[],
  details: unknown,
): Promise<{ json: string; md: string }> {
  await mkdir(dir, { recursive: true });
  const json = join(dir, 'latest.json');
  const md = join(dir, 'latest.md');
  await writeFile(json, `${JSON.stringify({ environment: env, rows, skipped, details }, null, 2)}\n`);
  await writeFile(md, markdown(rows, env, skipped));
  return { json, md };
}
