import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isIgnored, loadGitignoreChain, parseGitignore, withGitignoreOf } from './gitignore.js';

let root: string;

beforeEach(async () => {
  root = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'gitignore-')));
});

afterEach(async () => {
  await fsp.rm(root, { recursive: true, force: true });
});

describe('gitignore rules', () => {
  it('ignores nothing for a file of comments and blank lines', () => {
    expect(parseGitignore('# just a comment\n\n')).toBeUndefined();
  });

  it('scopes each .gitignore to its own directory, deeper files overriding', async () => {
    await fsp.mkdir(path.join(root, 'pkg'));
    await fsp.writeFile(path.join(root, '.gitignore'), '*.log\n/top-only\n');
    await fsp.writeFile(path.join(root, 'pkg', '.gitignore'), '!important.log\n');
    const stack = withGitignoreOf(withGitignoreOf([], root), path.join(root, 'pkg'));
    expect(isIgnored(stack, path.join(root, 'a.log'), false)).toBe(true);
    expect(isIgnored(stack, path.join(root, 'pkg', 'b.log'), false)).toBe(true);
    expect(isIgnored(stack, path.join(root, 'pkg', 'important.log'), false)).toBe(false);
    expect(isIgnored(stack, path.join(root, 'top-only'), false)).toBe(true);
    expect(isIgnored(stack, path.join(root, 'pkg', 'top-only'), false)).toBe(false);
  });

  it('applies directory-only patterns to directories only', async () => {
    await fsp.writeFile(path.join(root, '.gitignore'), 'build/\n');
    const stack = withGitignoreOf([], root);
    expect(isIgnored(stack, path.join(root, 'build'), true)).toBe(true);
    expect(isIgnored(stack, path.join(root, 'build'), false)).toBe(false);
  });

  it('loads the chain from the boundary down, but not above it', async () => {
    await fsp.mkdir(path.join(root, 'a', 'b'), { recursive: true });
    await fsp.writeFile(path.join(root, '.gitignore'), 'from-root\n');
    await fsp.writeFile(path.join(root, 'a', '.gitignore'), 'from-a\n');
    const full = loadGitignoreChain(path.join(root, 'a', 'b'), root);
    expect(isIgnored(full, path.join(root, 'a', 'b', 'from-root'), false)).toBe(true);
    expect(isIgnored(full, path.join(root, 'a', 'b', 'from-a'), false)).toBe(true);
    const partial = loadGitignoreChain(path.join(root, 'a', 'b'), path.join(root, 'a'));
    expect(isIgnored(partial, path.join(root, 'a', 'b', 'from-root'), false)).toBe(false);
  });
});
