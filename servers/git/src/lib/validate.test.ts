import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArgumentError, treePath, workTreeRelative } from './validate.js';

const win = { path: path.win32, caseInsensitive: true };
const linux = { path: path.posix, caseInsensitive: false };

describe('work-tree paths by Windows rules (path.win32)', () => {
  const root = 'C:\\Users\\me\\repo';

  it('takes a drive-letter path inside the work tree, in any case and with either separator', () => {
    expect(workTreeRelative(root, 'C:\\Users\\me\\repo\\src\\app.ts', root, win).relative).toBe('src/app.ts');
    expect(workTreeRelative(root, 'c:/users/ME/repo/src/app.ts', root, win).relative).toBe('src/app.ts');
    expect(workTreeRelative(root, 'src\\app.ts', root, win).relative).toBe('src/app.ts');
    expect(workTreeRelative(root, 'src/app.ts', root, win).absolute).toBe('C:\\Users\\me\\repo\\src\\app.ts');
  });

  it('refuses another drive, a path that climbs out, and .git in any case', () => {
    for (const outside of ['D:\\Users\\me\\repo\\x', '..\\other\\x', 'C:\\Users\\me\\repo-evil\\x', '\\\\server\\share\\x']) {
      expect(() => workTreeRelative(root, outside, root, win), outside).toThrow(/outside the repository's work tree/);
    }
    for (const inGit of ['.git\\config', '.GIT\\hooks\\pre-commit', 'C:\\Users\\me\\repo\\.Git\\config', '.git.\\config']) {
      expect(() => workTreeRelative(root, inGit, root, win), inGit).toThrow(/inside \.git/);
    }
  });

  it('on Linux ".GIT" is an ordinary directory and "C:\\\\x" an ordinary name', () => {
    expect(workTreeRelative('/repo', '.GIT/x', '/repo', linux).relative).toBe('.GIT/x');
    expect(() => workTreeRelative('/repo', '.git/config', '/repo', linux)).toThrow(ArgumentError);
  });
});

describe('tree paths', () => {
  it('refuse a drive-letter or UNC path with advice, and keep relative ones', () => {
    for (const absolute of ['C:\\repo\\src\\app.ts', 'c:/repo/src/app.ts', '\\\\server\\share\\x']) {
      expect(() => treePath(absolute), absolute).toThrow(/absolute path\. Give a path relative to the repository's top/);
    }
    expect(treePath('src\\app.ts')).toBe('src/app.ts');
    expect(treePath('./src/app.ts')).toBe('src/app.ts');
  });
});
