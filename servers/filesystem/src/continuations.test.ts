// Issue 21, items 11 and 6: every cut of read_text_file names a continuation the same
// tool accepts, and following them yields the file byte for byte, long lines included;
// a read holds only what it returns, under the server's budget of bytes in flight.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { open, textOf, type Session } from './test-support.js';

let tree: TempTree;
let session: Session;

interface Out {
  content: string;
  lines: number;
  truncated: boolean;
  nextStartLine?: number;
  nextStartByte?: number;
}

const MiB = 1024 * 1024;

beforeAll(async () => {
  tree = await makeTempTree({});
  // A 5 MB line of 2- and 4-byte characters (a cut at 2 MiB can fall inside one), then 3 MB of lines.
  const longLine = `${'é🌍x'.repeat(Math.ceil((5 * 1000 * 1000) / 7))}\n`;
  const rest = Array.from({ length: 60_000 }, (_, i) => `line ${i} ${'y'.repeat(40)}\n`).join('');
  writeFileSync(tree.path('long-line.txt'), `first line\n${longLine}${rest}`);
  writeFileSync(tree.path('nine.txt'), Array.from({ length: 180_000 }, (_, i) => `row ${i} ${'z'.repeat(45)}\n`).join(''));
  session = await open({ dirs: [tree.dir] });
  await session.client.listTools(); // the client validates structuredContent against outputSchema
});

afterAll(async () => {
  await session?.close();
  await tree?.cleanup();
});

/** Follows continuations from `first` to the end; the concatenated contents and every answer. */
async function follow(path: string, first: Record<string, unknown>, prefer: 'line' | 'byte'): Promise<{ text: string; answers: Out[] }> {
  const answers: Out[] = [];
  let args: Record<string, unknown> = first;
  for (let i = 0; i < 50; i++) {
    const result = await session.call('read_text_file', { path, ...args });
    expect(result.isError, textOf(result).slice(0, 300)).toBeFalsy();
    const out = result.structuredContent as unknown as Out;
    answers.push(out);
    if (out.nextStartByte === undefined) break;
    expect(Buffer.byteLength(out.content)).toBeLessThanOrEqual(2 * MiB);
    // The text rendering names the continuation too.
    expect(textOf(result)).toContain(`start_byte: ${out.nextStartByte}`);
    args = prefer === 'line' && out.nextStartLine !== undefined ? { start_line: out.nextStartLine } : { start_byte: out.nextStartByte };
  }
  return { text: answers.map((out) => out.content).join(''), answers };
}

describe('continuations of read_text_file (issue 21, item 11)', () => {
  it('following start_byte from a whole read gives back the file byte for byte, through a 5 MB line', async () => {
    const { text, answers } = await follow(tree.path('long-line.txt'), {}, 'byte');
    expect(Buffer.from(text).equals(readFileSync(tree.path('long-line.txt')))).toBe(true);
    expect(answers.length).toBeGreaterThanOrEqual(5);
    // Cuts inside the long line have no line to go on from; the others do.
    expect(answers.some((out) => out.nextStartByte !== undefined && out.nextStartLine === undefined)).toBe(true);
  });

  it('following nextStartLine where there is one (start_byte inside the long line) gives the same bytes', async () => {
    const { text, answers } = await follow(tree.path('long-line.txt'), {}, 'line');
    expect(Buffer.from(text).equals(readFileSync(tree.path('long-line.txt')))).toBe(true);
    expect(answers.filter((out) => out.nextStartLine !== undefined).length).toBeGreaterThan(0);
  });

  it('accepts start_line with a remainder over 2 MiB: cut at a line end, not refused', async () => {
    const whole = readFileSync(tree.path('nine.txt'), 'utf8');
    const result = await session.call('read_text_file', { path: tree.path('nine.txt'), start_line: 2 });
    expect(result.isError, textOf(result).slice(0, 300)).toBeFalsy();
    const out = result.structuredContent as unknown as Out;
    expect(out.content.startsWith('row 1 ')).toBe(true);
    expect(out.content.endsWith('\n')).toBe(true);
    expect(out.nextStartLine).toBe(2 + out.lines);
    expect(whole.split('\n')[out.nextStartLine! - 1]).toMatch(/^row /);
    const { text } = await follow(tree.path('nine.txt'), { start_line: 2 }, 'line');
    expect(text).toBe(whole.slice(whole.indexOf('\n') + 1));
  });

  it('refuses a start_byte inside a multi-byte character, saying what to pass instead', async () => {
    // "first line\n" is 11 bytes, then "é" (2 bytes): byte 12 is its second byte.
    const result = await session.call('read_text_file', { path: tree.path('long-line.txt'), start_byte: 12 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/start_byte 12 falls inside a multi-byte character.*nextStartByte/);
  });

  it('refuses start_byte together with another selector', async () => {
    const result = await session.call('read_text_file', { path: tree.path('nine.txt'), start_byte: 0, head: 3 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/only one of head, tail, start_line\/end_line, or start_byte/);
  });
});

describe('memory of concurrent reads (issue 21, item 6)', () => {
  it('60 concurrent whole reads of a 9.3 MB file each hold only what they return', async () => {
    const size = readFileSync(tree.path('nine.txt')).length;
    expect(size).toBeGreaterThan(9 * 1000 * 1000);
    const before = process.memoryUsage().arrayBuffers;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 1);
    try {
      const results = await Promise.all(Array.from({ length: 60 }, () => session.ok<Out>('read_text_file', { path: tree.path('nine.txt') })));
      for (const out of results) expect(out.nextStartLine).toBe(results[0].nextStartLine);
    } finally {
      clearInterval(sampler);
    }
    // Reading each whole file to return 2 MiB held 60 x 9.3 MB (+555 MiB measured); now at
    // most the budget (32 MiB) is being read at once, plus what the garbage collector has
    // not yet freed (+74 MiB measured).
    expect(peak - before).toBeLessThan(200 * MiB);
  }, 60_000);
});

describe('continuations through text that JSON escapes (issue 21, item 11)', () => {
  it('cuts a file of control characters by its size on the wire, and following the cuts gives it back', async () => {
    // 3 MB of "\u0001": 6 bytes each in JSON. A 2 MiB cut of it did not fit any answer.
    const content = `${'\u0001'.repeat(3 * 1000 * 1000)}\nend\n`;
    writeFileSync(tree.path('control.txt'), content);
    const { text, answers } = await follow(tree.path('control.txt'), {}, 'byte');
    expect(text === content).toBe(true);
    expect(answers.length).toBeGreaterThan(2);
  }, 60_000);
});
