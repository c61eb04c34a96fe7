import { describe, expect, it } from 'vitest';
import { applyEdits, applyEditsToBytes } from './edit.js';
import { FsError } from './errors.js';

function failure(run: () => unknown): FsError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FsError);
    return error as FsError;
  }
  throw new Error('expected the edit to be refused');
}

describe('applyEdits: exact matches', () => {
  it('replaces a unique exact match and returns a diff of it', () => {
    const result = applyEdits('alpha\nbeta\ngamma\n', [{ oldText: 'beta', newText: 'BETA' }], { path: 'g.txt' });
    expect(result.content).toBe('alpha\nBETA\ngamma\n');
    expect(result.diff).toContain('--- a/g.txt');
    expect(result.diff).toContain('-beta\n+BETA');
    expect(result.applied).toEqual([{ line: 2, match: 'exact' }]);
  });

  it('applies edits in order, each seeing the result of the previous', () => {
    const result = applyEdits('one\n', [
      { oldText: 'one', newText: 'two' },
      { oldText: 'two', newText: 'three' },
    ]);
    expect(result.content).toBe('three\n');
  });

  it('treats $ patterns in newText literally', () => {
    expect(applyEdits('x = 1\n', [{ oldText: '1', newText: "$& $1 $$'" }]).content).toBe("x = $& $1 $$'\n");
  });

  it('deletes whole lines when oldText ends with a newline and newText is empty', () => {
    expect(applyEdits('a\nb\nc\n', [{ oldText: 'b\n', newText: '' }]).content).toBe('a\nc\n');
  });

  it('fills an empty file from an empty oldText', () => {
    expect(applyEdits('', [{ oldText: '', newText: 'hello\n' }]).content).toBe('hello\n');
  });
});

describe('applyEdits: whitespace-tolerant matches', () => {
  const source = ['function f() {', '    if (x) {', '        return 1;', '    }', '}', ''].join('\n');

  it('matches lines whose indentation differs and re-indents newText to the file', () => {
    const result = applyEdits(source, [
      { oldText: 'if (x) {\n    return 1;\n}', newText: 'if (y) {\n    return 2;\n}' },
    ]);
    expect(result.content).toBe(['function f() {', '    if (y) {', '        return 2;', '    }', '}', ''].join('\n'));
    expect(result.applied).toEqual([{ line: 2, match: 'whitespace' }]);
  });

  it('ignores trailing whitespace differences', () => {
    const result = applyEdits('a  \nb\t\nc\n', [{ oldText: 'a\nb', newText: 'A\nB' }]);
    expect(result.content).toBe('A\nB\nc\n');
  });

  it('keeps the column offset of newText lines the model indented less than oldText', () => {
    const result = applyEdits('if (a) {\n    return 1;\n}\n', [
      { oldText: '        return 1;', newText: '        return 2;\n    }\n    if (b) {\n        return 3;' },
    ]);
    expect(result.content).toBe('if (a) {\n    return 2;\n}\nif (b) {\n    return 3;\n}\n');
  });

  it('re-indents newText with the tabs of a tab-indented file, never mixing in the model\'s spaces', () => {
    const tabbed = ['function f() {', '\tif (x) {', '\t\treturn 1;', '\t}', '}', ''].join('\n');
    const result = applyEdits(tabbed, [
      {
        oldText: '    if (x) {\n        return 1;\n    }',
        newText: '    if (y) {\n        if (z) {\n            return 2;\n        }\n    }\nreturn 0;',
      },
    ]);
    expect(result.content).toBe(['function f() {', '\tif (y) {', '\t\tif (z) {', '\t\t\treturn 2;', '\t\t}', '\t}', 'return 0;', '}', ''].join('\n'));
    expect(result.applied).toEqual([{ line: 2, match: 'whitespace' }]);
    // Also when oldText's first line has no indentation to swap.
    const top = applyEdits('f() {\n\treturn 1;\n}\n', [{ oldText: 'f() {\n  return 1;\n}', newText: 'f() {\n  const a = 1;\n  return a;\n}' }]);
    expect(top.content).toBe('f() {\n\tconst a = 1;\n\treturn a;\n}\n');
  });

  it('re-indents newText with the spaces of a space-indented file when the model wrote tabs', () => {
    const result = applyEdits('class A {\n    m() {\n        return 1;\n    }\n}\n', [
      { oldText: '\tm() {\n\t\treturn 1;\n\t}', newText: '\tm() {\n\t\tif (a) {\n\t\t\treturn 2;\n\t\t}\n\t}' },
    ]);
    expect(result.content).toBe('class A {\n    m() {\n        if (a) {\n            return 2;\n        }\n    }\n}\n');
  });
});

describe('applyEdits: line endings', () => {
  it('keeps a CRLF file CRLF when the edit is written with LF', () => {
    const result = applyEdits('one\r\ntwo\r\nthree\r\n', [{ oldText: 'one\ntwo', newText: 'uno\ndos\nmas' }]);
    expect(result.content).toBe('uno\r\ndos\r\nmas\r\nthree\r\n');
    expect(result.diff).not.toContain('\r');
  });

  it('leaves an LF file LF when the edit is written with CRLF', () => {
    expect(applyEdits('a\nb\n', [{ oldText: 'a\r\nb', newText: 'x\r\ny' }]).content).toBe('x\ny\n');
  });
});

describe('applyEdits: refusals', () => {
  it('refuses an ambiguous edit, naming the lines and asking for more context, and changes nothing', () => {
    const original = 'x = 1\ny = 2\nx = 1\n';
    const error = failure(() => applyEdits(original, [{ oldText: 'x = 1', newText: 'x = 3' }]));
    expect(error.code).toBe('EDIT_AMBIGUOUS');
    expect(error.message).toMatch(/edits\[0\]/);
    expect(error.message).toMatch(/lines 1, 3/);
    expect(error.message).toMatch(/surrounding lines/);
  });

  it('refuses an edit that is ambiguous only after whitespace is ignored', () => {
    const error = failure(() => applyEdits('  a\n  b\n\ta\n\tb\n', [{ oldText: 'a\nb', newText: 'c' }]));
    expect(error.code).toBe('EDIT_AMBIGUOUS');
    expect(error.message).toMatch(/lines 1, 3/);
  });

  it('names the failing edit by index and first line, and stops at it', () => {
    const error = failure(() =>
      applyEdits('one\ntwo\n', [
        { oldText: 'one', newText: '1' },
        { oldText: 'three\nfour', newText: '3' },
      ]),
    );
    expect(error.code).toBe('EDIT_NO_MATCH');
    expect(error.message).toMatch(/edits\[1\] \(oldText starting "three"\)/);
  });

  it('says when the text matches only if whitespace inside lines is ignored', () => {
    const error = failure(() => applyEdits('const  x =  1;\n', [{ oldText: 'const x = 1;', newText: '' }]));
    expect(error.code).toBe('EDIT_NO_MATCH');
    expect(error.message).toMatch(/only if whitespace inside lines is ignored/);
    expect(error.message).toMatch(/line 1/);
  });

  it('points at the closest partial match and the line that differs', () => {
    const file = ['a', 'b', 'start()', 'middle()', 'finish()', 'z', ''].join('\n');
    const error = failure(() => applyEdits(file, [{ oldText: 'start()\nmiddle()\nend()', newText: '' }]));
    expect(error.code).toBe('EDIT_NO_MATCH');
    expect(error.message).toMatch(/closest match is at line 3/);
    expect(error.message).toMatch(/"end\(\)" where line 5 of the file has "finish\(\)"/);
  });

  it('says when no line of oldText occurs at all', () => {
    const error = failure(() => applyEdits('a\n', [{ oldText: 'nothing like it', newText: '' }]));
    expect(error.message).toMatch(/none of its lines occur/);
  });

  it('refuses an empty oldText on a non-empty file', () => {
    expect(failure(() => applyEdits('a\n', [{ oldText: '', newText: 'b' }])).code).toBe('EDIT_NO_MATCH');
  });
});

describe('applyEditsToBytes: every byte outside the edits is kept', () => {
  it('keeps bytes that are not UTF-8, before and after the edit', async () => {
    const original = Buffer.concat([Buffer.from([0xe9, 0xff]), Buffer.from('\nkeep\nchange me\n'), Buffer.from([0x80, 0x0a])]);
    const result = await applyEditsToBytes(original, [{ oldText: 'change me', newText: 'changed' }]);
    expect(result.content.equals(Buffer.concat([Buffer.from([0xe9, 0xff]), Buffer.from('\nkeep\nchanged\n'), Buffer.from([0x80, 0x0a])]))).toBe(true);
    expect(result.changed).toBe(true);
    expect(result.diff).toMatch(/^-change me\n\+changed$/m);
  });

  it('matches UTF-8 text next to bytes that are not, whitespace-tolerantly too', async () => {
    const original = Buffer.concat([Buffer.from('  caf\u00e9 au lait\n'), Buffer.from([0xa0, 0x0a]), Buffer.from('\tend\n')]);
    const result = await applyEditsToBytes(original, [{ oldText: 'caf\u00e9 au lait\n\xa0', newText: 'x' }]).catch((e: unknown) => e);
    // "\xa0" as text is U+00A0 (two bytes in UTF-8), not the lone byte in the file: no match, and a clear reason.
    expect((result as FsError).code).toBe('EDIT_NO_MATCH');
    const tolerant = await applyEditsToBytes(original, [{ oldText: 'café au lait', newText: 'tea' }]);
    expect(tolerant.content.equals(Buffer.concat([Buffer.from('  tea\n'), Buffer.from([0xa0, 0x0a]), Buffer.from('\tend\n')]))).toBe(true);
  });

  it('keeps the "\\r" of CRLF lines around a whitespace-tolerant match, and LF lines LF', () => {
    const result = applyEdits('x\r\n  if (a) {\r\n    go();\r\n  }\r\ntail\nlast\r\n', [{ oldText: 'if (a) {\n  go();\n}', newText: 'if (b) {\n  stop();\n}' }]);
    expect(result.content).toBe('x\r\n  if (b) {\r\n    stop();\r\n  }\r\ntail\nlast\r\n');
    expect(result.applied).toEqual([{ line: 2, match: 'whitespace' }]);
  });

  it('counts every match of an ambiguous edit but numbers only the first ten', () => {
    const error = failure(() => applyEdits('x\n'.repeat(5000), [{ oldText: 'x', newText: 'y' }]));
    expect(error.message).toMatch(/matches 5000 places \(lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, \.\.\.\)/);
  });

  it('reports nothing changed when the edits put back what they took', async () => {
    const result = await applyEditsToBytes(Buffer.from('a\nb\n'), [{ oldText: 'a', newText: 'b\nc' }, { oldText: 'b\nc', newText: 'a' }]);
    expect(result.changed).toBe(false);
    expect(result.diff).toBe('');
  });

  it('stops between edits when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(applyEditsToBytes(Buffer.from('a\n'), [{ oldText: 'a', newText: 'b' }], { signal: controller.signal })).rejects.toThrow('stop');
  });
});
