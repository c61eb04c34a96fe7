import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { makeTempTree, type TempTree } from '@mcp-reference/test-harness';
import { realpath } from 'node:fs/promises';
import { directorySet } from '@mcp-reference/shared/core';
import { transportOf } from './remote.js';
import type { Repo } from './repo.js';

describe('transportOf', () => {
  let tree: TempTree;
  let repo: Repo;
  beforeAll(async () => {
    tree = await makeTempTree({ 'inside/x': 'x', 'outside/y': 'y' });
    const root = await realpath(tree.path('inside'));
    repo = { root, gitDir: `${root}/.git`, commonDir: `${root}/.git`, id: 'inside-0' };
  });
  afterAll(() => tree.cleanup());

  it('allows https, ssh (URL and scp-like) and git', async () => {
    const areas = directorySet([repo.root]);
    expect(await transportOf('https://example.com/a.git', repo, areas)).toBe('https');
    expect(await transportOf('ssh://git@example.com/a.git', repo, areas)).toBe('ssh');
    expect(await transportOf('git@example.com:a/b.git', repo, areas)).toBe('ssh');
    expect(await transportOf('git://127.0.0.1:9418/a.git', repo, areas)).toBe('git');
  });

  it('refuses remote helpers, plain http, "-" hosts and local paths outside the allowed repositories', async () => {
    const areas = directorySet([repo.root]);
    for (const url of ['ext::sh -c touch% /tmp/x', 'fd::3', 'http://example.com/a.git', 'ssh://-oProxyCommand=x/y', '-oProxyCommand=x:y', 'ftp://example.com/a', `file://${tree.path('outside')}`, tree.path('outside'), '../outside']) {
      await expect(transportOf(url, repo, areas), url).rejects.toThrow(/Refused|only https|outside/);
    }
  });

  it('allows a local path or file:// URL inside the allowed repositories', async () => {
    expect(await transportOf('.', repo, directorySet([repo.root]))).toBe('file');
    expect(await transportOf(`file://${repo.root}`, repo, directorySet([repo.root]))).toBe('file');
  });
});
