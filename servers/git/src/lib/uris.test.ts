import { describe, it, expect } from 'vitest';
import { parseUri, uris } from './uris.js';
import { repoId } from './repo.js';

describe('resource URIs', () => {
  it('round-trip branches with slashes, refs as one encoded segment, and paths', () => {
    expect(parseUri(uris.branch('app-1', 'feature/x y'))).toEqual({ kind: 'branch', repo: 'app-1', name: 'feature/x y' });
    const file = uris.file('app-1', 'topic/x', 'src/dir/a b.txt');
    expect(file).toBe('git://app-1/file/topic%2Fx/src/dir/a%20b.txt');
    expect(parseUri(file)).toEqual({ kind: 'file', repo: 'app-1', ref: 'topic/x', path: 'src/dir/a b.txt' });
    expect(parseUri(uris.commit('app-1', 'abc123'))).toEqual({ kind: 'commit', repo: 'app-1', sha: 'abc123' });
    expect(parseUri(uris.head('app-1'))).toEqual({ kind: 'head', repo: 'app-1' });
    expect(parseUri('git://app-1/commit/not-hex')).toBeUndefined();
    expect(parseUri('file:///etc/passwd')).toBeUndefined();
  });

  it('keeps two repositories with the same directory name apart', () => {
    expect(repoId('/a/app')).not.toBe(repoId('/b/app'));
    expect(repoId('/a/app')).toMatch(/^app-[0-9a-f]{8}$/);
  });
});
