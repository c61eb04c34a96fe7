import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localToUriPath, pathFlavor, uriPathToLocal } from './path-flavor.js';
import { completeEntries, splitTyped } from '../complete-path.js';

const win = pathFlavor('win32');
const mac = pathFlavor('darwin');
const linux = pathFlavor('linux');

describe('path flavors', () => {
  it('Windows is path.win32 and case-insensitive; macOS is posix and case-insensitive; Linux is neither', () => {
    expect(win).toEqual({ path: path.win32, caseInsensitive: true });
    expect(mac).toEqual({ path: path.posix, caseInsensitive: true });
    expect(linux).toEqual({ path: path.posix, caseInsensitive: false });
  });

  it('the file template value keeps the drive letter on Windows and adds the root "/" elsewhere', () => {
    expect(uriPathToLocal('', win)).toBe('');
    expect(uriPathToLocal('Z:/tmp/ro', win)).toBe('Z:\\tmp\\ro');
    expect(uriPathToLocal('/Z:/tmp/', win)).toBe('Z:\\tmp\\');
    expect(uriPathToLocal('home/me', linux)).toBe('/home/me');
    expect(localToUriPath('Z:\\tmp\\root\\', win)).toBe('Z:/tmp/root/');
    expect(localToUriPath('/home/me/', linux)).toBe('home/me/');
  });
});

describe('path completion rules (pure, per platform)', () => {
  it('Windows: a drive path with either separator lists its directory, ending in "\\"', () => {
    expect(splitTyped('Z:/tmp/ro', win)).toEqual({ parent: 'Z:\\tmp\\', prefix: 'ro' });
    expect(splitTyped('Z:\\tmp\\root\\', win)).toEqual({ parent: 'Z:\\tmp\\root\\', prefix: '' });
    expect(splitTyped('Z:/tmp\\root/sub', win)).toEqual({ parent: 'Z:\\tmp\\root\\', prefix: 'sub' });
    expect(splitTyped('Z:\\', win)).toEqual({ parent: 'Z:\\', prefix: '' });
    expect(splitTyped('\\tmp\\x', win)).toEqual({ parent: '\\tmp\\', prefix: 'x' });
  });

  it('a bare root or a relative start completes to the allowed directories', () => {
    for (const typed of ['', '\\', 'Z:', 'notes']) expect(splitTyped(typed, win)).toBeUndefined();
    for (const typed of ['', '/', 'notes', 'C:\\x']) expect(splitTyped(typed, linux)).toBeUndefined();
  });

  it('Linux: "\\" is part of a name, not a separator', () => {
    expect(splitTyped('/tmp/a\\b', linux)).toEqual({ parent: '/tmp/', prefix: 'a\\b' });
  });

  const entries = [
    { name: 'Notes', directory: true },
    { name: 'notes.txt', directory: false },
    { name: 'other', directory: false },
  ];

  it('Windows and macOS match a prefix whatever its case; Linux matches it exactly', () => {
    expect(completeEntries(entries, { parent: 'Z:\\root\\', prefix: 'NOTE' }, win)).toEqual(['Z:\\root\\Notes\\', 'Z:\\root\\notes.txt']);
    expect(completeEntries(entries, { parent: '/root/', prefix: 'note' }, mac)).toEqual(['/root/Notes/', '/root/notes.txt']);
    expect(completeEntries(entries, { parent: '/root/', prefix: 'note' }, linux)).toEqual(['/root/notes.txt']);
  });
});
