import path from 'node:path';
import { lstat } from 'node:fs/promises';
import type { PathPolicy } from './path-policy.js';
import { FsError } from './errors.js';
import { pathOfFileUri } from './file-uri.js';

/**
 * The entry itself (not what a symlink points to) for move and copy: the parent is
 * resolved through the policy and the name kept, after checking that the entry, if it
 * is a link, does not lead outside (resolveReadable refuses that).
 */
export async function resolveEntry(policy: PathPolicy, requested: string): Promise<{ entry: string; real: string }> {
  // The policy checks the string as given (URI, relative path...); the parent is taken
  // of the same path in plain form.
  const real = await policy.resolveReadable(requested);
  const plain = pathOfFileUri(requested) ?? requested;
  const name = path.basename(plain);
  if (name === '' || name === '.' || name === '..') throw new FsError('INVALID_PATH', `${requested} does not name a file or directory.`);
  const parent = await policy.resolveDirectory(path.dirname(path.isAbsolute(plain) ? plain : path.join((await policy.allowed())[0], plain)));
  const entry = path.join(parent, name);
  await lstat(entry);
  return { entry, real };
}
