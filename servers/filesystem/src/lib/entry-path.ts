import path from 'node:path';
import { lstat } from 'node:fs/promises';
import type { PathPolicy } from './path-policy.js';
import { FsError } from './errors.js';

/**
 * The entry itself (not what a symlink points to) for move and copy: the parent is
 * resolved through the policy and the name kept, after checking that the entry, if it
 * is a link, does not lead outside (resolveReadable refuses that).
 */
export async function resolveEntry(policy: PathPolicy, requested: string): Promise<{ entry: string; real: string }> {
  const name = path.basename(requested);
  if (name === '' || name === '.' || name === '..') throw new FsError('INVALID_PATH', `${requested} does not name a file or directory.`);
  const real = await policy.resolveReadable(requested);
  const parent = await policy.resolveDirectory(path.dirname(path.isAbsolute(requested) ? requested : path.join((await policy.allowed())[0], requested)));
  const entry = path.join(parent, name);
  await lstat(entry);
  return { entry, real };
}
