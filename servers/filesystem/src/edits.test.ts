// edit_file and write_file under concurrency and on real-world bytes, through a real
// client: concurrent edits of one file all survive, concurrent creates create once, a
// change made by someone else mid-edit is never overwritten, bytes outside the edited
// spans are kept, and large edits stay cancellable with bounded diagnostics.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { connectInMemory, makeTempTree, slowPerson, unlessStillWaiting, type TempTree } from '@mcp-reference/test-harness';
import { spawn } from 'node:child_process';
import { bin, open, refusal, sleep, textOf, type Session } from './test-support.js';

let tree: TempTree;
let session: Session | undefined;

beforeEach(async () => {
  tree = await makeTempTree({});
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  await tree.cleanup();
});

describe('concurrent writes to one path (issue 13, item 8)', () => {
  it('keeps every one of 20 parallel edits to different lines of one file', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i} = old`);
    await writeFile(tree.path('shared.txt'), `${lines.join('\n')}\n`);
    session = await open({ dirs: [tree.dir] });
    const results = await Promise.all(
      lines.map((_, i) => session!.call('edit_file', { path: tree.path('shared.txt'), edits: [{ oldText: `line ${i} = old`, newText: `line ${i} = new` }] })),
    );
    for (const result of results) expect(result.isError, textOf(result)).toBeFalsy();
    const expected = lines.map((_, i) => `line ${i} = new`).join('\n');
    expect(await readFile(tree.path('shared.txt'), 'utf8')).toBe(`${expected}\n`);
  });

  it('keeps parallel edits from two sessions of one server too', async () => {
    await writeFile(tree.path('two.txt'), 'alpha\nbeta\n');
    session = await open({ dirs: [tree.dir] });
    const { connectInMemory } = await import('@mcp-reference/test-harness');
    const other = await connectInMemory(session.server);
    try {
      const [a, b] = await Promise.all([
        session.call('edit_file', { path: tree.path('two.txt'), edits: [{ oldText: 'alpha', newText: 'ALPHA' }] }),
        other.client.callTool({ name: 'edit_file', arguments: { path: tree.path('two.txt'), edits: [{ oldText: 'beta', newText: 'BETA' }] } }),
      ]);
      expect(a.isError).toBeFalsy();
      expect(b.isError).toBeFalsy();
      expect(await readFile(tree.path('two.txt'), 'utf8')).toBe('ALPHA\nBETA\n');
    } finally {
      await other.close();
    }
  });

  it('reports created: true for exactly one of 20 concurrent creates of one new file', async () => {
    session = await open({ dirs: [tree.dir] });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => session!.ok<{ created: boolean }>('write_file', { path: tree.path('new.txt'), content: `writer ${i}\n` })),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await readFile(tree.path('new.txt'), 'utf8')).toMatch(/^writer \d+\n$/);
  });

  it('refuses to write an edit when another process changed the file while it was being edited, keeping that change', async () => {
    // Enough edits that applying them takes a while, so the outside write lands in between.
    const lines = Array.from({ length: 20_000 }, (_, i) => `value${i} = compute(${i});`);
    await writeFile(tree.path('busy.txt'), `${lines.join('\n')}\n`);
    session = await open({ dirs: [tree.dir] });
    const edits = Array.from({ length: 3_000 }, (_, i) => ({ oldText: `value${i * 5} = `, newText: `renamed${i * 5} = ` }));
    // The first progress notification comes after the read and before the rename: the
    // outside write lands there, whatever the speed of the machine.
    let written = false;
    const result = await session.call('edit_file', { path: tree.path('busy.txt'), edits }, {
      onprogress: () => {
        if (written) return;
        written = true;
        writeFileSync(tree.path('busy.txt'), 'someone else wrote this\n');
      },
    });
    expect(written).toBe(true);
    expect(result.isError, textOf(result)).toBe(true);
    expect(textOf(result)).toMatch(/changed by someone else after it was read/);
    expect(await readFile(tree.path('busy.txt'), 'utf8')).toBe('someone else wrote this\n');
  });
});

describe('edit_file keeps every byte it did not edit (item 9)', () => {
  it('keeps a Latin-1 byte elsewhere in the file, and the diff shows only the edited line', async () => {
    const original = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from('\nline two\nlast\n')]);
    await writeFile(tree.path('latin1.txt'), original);
    session = await open({ dirs: [tree.dir] });
    const out = await session.ok<{ diff: string }>('edit_file', { path: tree.path('latin1.txt'), edits: [{ oldText: 'line two', newText: 'line 2' }] });
    const after = await readFile(tree.path('latin1.txt'));
    expect(after.equals(Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from('\nline 2\nlast\n')]))).toBe(true);
    expect(out.diff.split('\n').filter((line) => /^[-+][^-+]/.test(line))).toEqual(['-line two', '+line 2']);
  });

  it('leaves LF lines of a mostly-CRLF file LF, and CRLF lines CRLF', async () => {
    await writeFile(tree.path('mixed.txt'), 'one\r\ntwo\r\nthree\nfour\r\nfive\r\n');
    session = await open({ dirs: [tree.dir] });
    const out = await session.ok<{ diff: string }>('edit_file', { path: tree.path('mixed.txt'), edits: [{ oldText: 'two\n', newText: 'TWO\nand a half\n' }] });
    expect(await readFile(tree.path('mixed.txt'), 'utf8')).toBe('one\r\nTWO\r\nand a half\r\nthree\nfour\r\nfive\r\n');
    expect(out.diff).not.toMatch(/^[-+]three/m);
    expect(out.diff).not.toMatch(/^[-+]four/m);
  });

  it('edits an LF line of a mostly-CRLF file with LF', async () => {
    await writeFile(tree.path('mixed.txt'), 'one\r\ntwo\r\nthree\nfour\nfive\r\nsix\r\n');
    session = await open({ dirs: [tree.dir] });
    await session.ok('edit_file', { path: tree.path('mixed.txt'), edits: [{ oldText: 'three\nfour\n', newText: '3\n4\n' }] });
    expect(await readFile(tree.path('mixed.txt'), 'utf8')).toBe('one\r\ntwo\r\n3\n4\nfive\r\nsix\r\n');
  });
});

describe('edit_file text output', () => {
  it('fences the diff with more backticks than any run in it, so file content cannot close the fence', async () => {
    await writeFile(tree.path('notes.md'), 'intro\n```\ncode\n````\nend\n');
    session = await open({ dirs: [tree.dir] });
    const result = await session.call('edit_file', { path: tree.path('notes.md'), edits: [{ oldText: 'code\n````', newText: '```js\ncode\n````' }], dryRun: true });
    const text = textOf(result);
    const { diff } = result.structuredContent as { diff: string };
    expect(text.startsWith('`````diff\n')).toBe(true);
    // Exactly the diff between the fences: no line of it is read as the end of the block.
    expect(text).toBe(`\`\`\`\`\`diff\n${diff}\`\`\`\`\`\n(dry run: nothing written)`);
    expect(diff).toContain('+```js');
  });

  it('keeps the plain three-backtick fence when the diff holds no backticks', async () => {
    await writeFile(tree.path('a.txt'), 'one\n');
    session = await open({ dirs: [tree.dir] });
    const text = textOf(await session.call('edit_file', { path: tree.path('a.txt'), edits: [{ oldText: 'one', newText: 'two' }] }));
    expect(text.startsWith('```diff\n')).toBe(true);
    expect(text.endsWith('+two\n```')).toBe(true);
  });
});

describe('large edits (item 10)', () => {
  it('applies thousands of exact edits to a large file, and a cancelled one writes nothing', async () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `    const value${i} = compute(${i}, "some text here");`);
    const original = `${lines.join('\n')}\n`;
    await writeFile(tree.path('big.ts'), original);
    session = await open({ dirs: [tree.dir] });
    const edits = Array.from({ length: 2_000 }, (_, i) => ({ oldText: `value${i * 15} = compute(`, newText: `renamed${i * 15} = compute(` }));

    const controller = new AbortController();
    const cancelled = session.client.callTool({ name: 'edit_file', arguments: { path: tree.path('big.ts'), edits } }, undefined, { signal: controller.signal });
    await sleep(30);
    controller.abort();
    await expect(cancelled).rejects.toThrow();
    // The server stopped between edits: give a write that was not stopped time to land, then look.
    await sleep(300);
    expect(await readFile(tree.path('big.ts'), 'utf8')).toBe(original);

    const out = await session.ok<{ edits: { line: number }[] }>('edit_file', { path: tree.path('big.ts'), edits });
    expect(out.edits).toHaveLength(2_000);
    expect(out.edits[1999].line).toBe(1999 * 15 + 1);
    const after = await readFile(tree.path('big.ts'), 'utf8');
    expect(after).toContain('const renamed29985 = compute(29985,');
    expect(after.length).toBe(original.length + 2_000 * 2);
  });

  it('explains a near miss on thousands of repeated lines with bounded work', async () => {
    await writeFile(tree.path('braces.txt'), '  }\n'.repeat(3_000));
    session = await open({ dirs: [tree.dir] });
    const oldText = `${'}\n'.repeat(2_000)}zzz`;
    const message = await refusal(session, 'edit_file', { path: tree.path('braces.txt'), edits: [{ oldText, newText: 'x' }] });
    expect(message).toMatch(/closest match is at line 1 of the file, where lines 1-2000 of oldText's 2001 match/);
  }, 20_000);

  it('explains a near miss of an oldText of 100,000 lines with bounded work', async () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => `line ${i} x`);
    await writeFile(tree.path('long.txt'), lines.join('\n'));
    session = await open({ dirs: [tree.dir] });
    const oldText = lines.map((line, i) => (i === 50_000 ? 'different' : line)).join('\n');
    const message = await refusal(session, 'edit_file', { path: tree.path('long.txt'), edits: [{ oldText, newText: 'x' }] });
    expect(message).toMatch(/where lines 1-50000 of oldText's 100000 match; then oldText has "different" where line 50001/);
  }, 20_000);
});

describe('an ambiguous oldText costs linear work (issue 21, item 2)', () => {
  it('refuses half of a 1 MB file of identical lines at once, and a ping is answered meanwhile', async () => {
    // 2N identical lines, oldText N of them: N + 1 overlapping matches. Searching again
    // after each one cost N bytes per match (minutes for 1 MB, the event loop blocked).
    const lines = 256 * 1024;
    await writeFile(tree.path('same.txt'), 'x\n'.repeat(lines * 2));
    session = await open({ dirs: [tree.dir] });
    const started = performance.now();
    const [message] = await Promise.all([
      refusal(session, 'edit_file', { path: tree.path('same.txt'), edits: [{ oldText: 'x\n'.repeat(lines), newText: 'y\n' }] }),
      session.client.ping(),
    ]);
    const elapsed = performance.now() - started;
    expect(message).toMatch(new RegExp(`matches ${lines + 1} places \\(lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, \\.\\.\\.\\)`));
    // Generous: linear work takes milliseconds; the quadratic search took minutes.
    expect(elapsed).toBeLessThan(10_000);
    expect(await readFile(tree.path('same.txt'), 'utf8')).toBe('x\n'.repeat(lines * 2));
  }, 60_000);
});

describe('the published bundle, with an ambiguous edit in flight (issue 21, item 2)', () => {
  it('exits soon after stdin closes', async () => {
    const lines = 256 * 1024;
    await writeFile(tree.path('same.txt'), 'x\n'.repeat(lines * 2));
    const child = spawn(process.execPath, [bin, tree.dir], { stdio: ['pipe', 'ignore', 'ignore'] });
    const exited = new Promise<number>((resolve) => child.on('exit', () => resolve(performance.now())));
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'edit_file', arguments: { path: tree.path('same.txt'), edits: [{ oldText: 'x\n'.repeat(lines), newText: 'y\n' }] } },
    });
    await sleep(300);
    const closed = performance.now();
    child.stdin.end();
    const stopped = await unlessStillWaiting(exited, 20_000);
    if (stopped === undefined) child.kill('SIGKILL');
    // Generous: the base exits within 3 s of stdin closing; the blocked event loop took over 30 s.
    expect(stopped === undefined ? Infinity : stopped - closed).toBeLessThan(10_000);
    expect(await readFile(tree.path('same.txt'), 'utf8')).toBe('x\n'.repeat(lines * 2));
  }, 60_000);
});

describe('an edit whose diff is too long for one answer (issue 21, item 12)', () => {
  it('is written and answered with a shortened diff, never with an error after the change', async () => {
    const lines = Array.from({ length: 90_000 }, (_, i) => `line ${i} of a file whose every line the edit changes\n`);
    const original = lines.join('');
    const changed = lines.map((line) => line.toUpperCase()).join('');
    await writeFile(tree.path('all.txt'), original);
    session = await open({ dirs: [tree.dir] });
    const result = await session.call('edit_file', { path: tree.path('all.txt'), edits: [{ oldText: original, newText: changed }] });
    expect(result.isError, textOf(result).slice(0, 300)).toBeFalsy();
    const out = result.structuredContent as { diff: string; diffTruncated?: boolean };
    expect(out.diffTruncated).toBe(true);
    expect(out.diff).toMatch(/^-line 0 of a file/m);
    expect(out.diff).toMatch(/diff cut here: \d+ more bytes not shown; the file was written in full/);
    expect(await readFile(tree.path('all.txt'), 'utf8')).toBe(changed);
    // Over 8 MB of diff: whole, the answer was an error after the file was written.
    expect(original.length * 2).toBeGreaterThan(8 * 1024 * 1024);
  }, 60_000);
});

describe('a confirmation is asked before the path is locked (issue 21, item 4)', () => {
  const cases = [
    { tool: 'write_file', args: (t: TempTree) => ({ path: t.path('target.txt'), content: 'replacement\n' }) },
    { tool: 'move_file', args: (t: TempTree) => ({ source: t.path('source.txt'), destination: t.path('target.txt') }) },
    { tool: 'copy_file', args: (t: TempTree) => ({ source: t.path('source.txt'), destination: t.path('target.txt') }) },
  ];
  for (const { tool, args } of cases) {
    it(`${tool}: another session edits the file while the user is asked, and the stale replace is refused (CONFLICT)`, async () => {
      await writeFile(tree.path('target.txt'), 'original\n');
      await writeFile(tree.path('source.txt'), 'source\n');
      // A person who takes a while: the answer comes only when the test gives it.
      const person = slowPerson();
      session = await open({ dirs: [tree.dir] }, { elicit: person.elicit });
      const other = await connectInMemory(session.server);
      try {
        const replace = session.call(tool, args(tree));
        await person.asked;
        const edit = other.client.callTool({
          name: 'edit_file',
          arguments: { path: tree.path('target.txt'), edits: [{ oldText: 'original', newText: 'edited meanwhile' }] },
        });
        // With the lock held during the question, the edit waited for the answer (up to 60 s).
        const first = await unlessStillWaiting(edit);
        expect(first === undefined ? 'edit still waiting' : 'edit done').toBe('edit done');
        expect((await edit).isError).toBeFalsy();
        person.answer();
        const result = await replace;
        expect(result.isError, textOf(result)).toBe(true);
        expect(textOf(result)).toMatch(/changed while the user was being asked/);
        expect(await readFile(tree.path('target.txt'), 'utf8')).toBe('edited meanwhile\n');
        expect(await readFile(tree.path('source.txt'), 'utf8')).toBe('source\n');
      } finally {
        person.answer();
        await other.close();
      }
    }, 30_000);
  }

  it('write_file still replaces the file when it did not change while the user was asked', async () => {
    await writeFile(tree.path('target.txt'), 'original\n');
    const asked: string[] = [];
    session = await open({ dirs: [tree.dir] }, { elicit: (message) => (asked.push(message), { action: 'accept', content: { confirm: true } }) });
    const out = await session.ok<{ created: boolean }>('write_file', { path: tree.path('target.txt'), content: 'replacement\n' });
    expect(out.created).toBe(false);
    expect(asked).toEqual([expect.stringMatching(/Replace the existing file .*target\.txt \(9 bytes, modified /)]);
    expect(await readFile(tree.path('target.txt'), 'utf8')).toBe('replacement\n');
  });
});

describe('an edit whose diff is mostly characters JSON escapes (issue 21, item 12)', () => {
  it('is cut by its size on the wire, not only in bytes, and answered as written', async () => {
    // Each control character travels as 6 bytes of JSON: 1.6 MB of them was ~20 MB of answer.
    const lines = Array.from({ length: 20_000 }, (_, i) => `${'\u0001'.repeat(80)} ${i}\n`);
    const original = lines.join('');
    const changed = lines.map((line) => `${line.slice(0, -1)}!\n`).join('');
    await writeFile(tree.path('control.txt'), original);
    session = await open({ dirs: [tree.dir] });
    const result = await session.call('edit_file', { path: tree.path('control.txt'), edits: [{ oldText: original, newText: changed }] });
    expect(result.isError, textOf(result).slice(0, 300)).toBeFalsy();
    expect((result.structuredContent as { diffTruncated?: boolean }).diffTruncated).toBe(true);
    expect(await readFile(tree.path('control.txt'), 'utf8')).toBe(changed);
  }, 60_000);
});
