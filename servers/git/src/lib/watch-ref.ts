import path from 'node:path';
import type { Disposer } from '@mcp-reference/shared/core';
import type { Repo } from './repo.js';
import type { GitRunner } from './safe-git.js';
import { PACKED_REFS_BYTES, readGitFile } from './git-file.js';
import { nodeCrypto } from '@mcp-reference/shared/core';

/** A ref's value read straight from the files (no git spawn): loose file, else packed-refs. */
export async function readRefFile(repo: Repo, ref: string): Promise<string> {
  // A symlinked ref reads as '' (unknown): commitOf then asks git, which follows it.
  const loose = readGitFile(path.join(ref === 'HEAD' ? repo.gitDir : repo.commonDir, ref), { symlink: 'empty' });
  if (loose !== undefined) return loose.trim();
  const packed = readGitFile(path.join(repo.commonDir, 'packed-refs'), { maxBytes: PACKED_REFS_BYTES, symlink: 'empty' }) ?? '';
  const line = packed.split('\n').find((row) => row.endsWith(` ${ref}`));
  return line ? line.split(' ')[0] : '';
}

async function fingerprint(repo: Repo, target: Target, git: GitRunner): Promise<string> {
  switch (target.kind) {
    case 'branch':
      return readRefFile(repo, `refs/heads/${target.name}`);
    case 'tag':
      return readRefFile(repo, `refs/tags/${target.name}`);
    case 'head': {
      const head = await readRefFile(repo, 'HEAD');
      const symbolic = /^ref: (.+)$/.exec(head);
      return symbolic ? `${head}\n${await readRefFile(repo, symbolic[1])}` : head;
    }
    case 'status': {
      const { stdout } = await git.run(repo, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'], { timeoutMs: 30_000 });
      return nodeCrypto().createHash('sha256').update(stdout).digest('hex');
    }
  }
}

type Target = { kind: 'branch' | 'tag'; name: string } | { kind: 'head' | 'status' };

/**
 * Calls `changed` when a subscribed ref (or the status) moves, whoever moved it: this
 * server or git outside it. Polls the ref files, so it costs one small read per
 * subscription per interval and nothing for refs nobody subscribed to.
 */
export async function watchRef(
  repo: Repo,
  target: Target,
  changed: () => void,
  options: { intervalMs: number; git: GitRunner },
): Promise<Disposer> {
  let last = await fingerprint(repo, target, options.git).catch(() => '');
  let stopped = false;
  let running = false;
  const interval = target.kind === 'status' ? Math.max(options.intervalMs, 1_000) : options.intervalMs;
  const timer = setInterval(async () => {
    if (running || stopped) return;
    running = true;
    try {
      const now = await fingerprint(repo, target, options.git).catch(() => last);
      if (now !== last && !stopped) {
        last = now;
        changed();
      }
    } finally {
      running = false;
    }
  }, interval);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
