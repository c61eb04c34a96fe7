import { describe, expect, it } from 'vitest';
import { applyEdits } from './edit.js';
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
