import path from 'node:path';
import { promises as fsp } from 'node:fs';
import type { PathPolicy } from './path-policy.js';
import { FsError, errnoCode, toFsError } from './errors.js';
import { pathOfFileUri } from './file-uri.js';

/**
 * The entry itself (not what a symlink points to) for move and copy: the parent is
 * resolved through the policy and the name kept, after checking that the entry, if it
 * is a link, does not lead outside (resolveReadable refuses that).
 *
 * With `linkItself` (move_file), a symlink that loops is accepted: moving the link
 * touches nothing it points to, and there is nothing it points to. Without it such a
 * link could never be renamed or moved out of the way.
 */
export async function resolveEntry(
  policy: PathPolicy,
  requested: string,
  options: { linkItself?: boolean } = {},
): Promise<{ entry: string; real: string }> {
  // The policy checks the string as given (URI, relative path...); the parent is taken
  // of the same path in plain form.
  const plain = pathOfFileUri(requested) ?? requested;
  const name = path.basename(plain);
  const named = name !== '' && name !== '.' && name !== '..';
  let real: string | undefined;
  try {
    real = await policy.resolveReadable(requested);
  } catch (error) {
    if (!(options.linkItself && named && (await isLoopingLink(policy, plain)))) throw error;
  }
  if (!named) throw new FsError('INVALID_PATH', `${requested} does not name a file or directory.`);
  const parent = await policy.resolveDirectory(path.dirname(path.isAbsolute(plain) ? plain : path.join((await policy.allowed())[0], plain)));
  const entry = path.join(parent, name);
  await fsp.lstat(entry).catch((error: unknown) => Promise.reject(toFsError(error, requested)));
  return { entry, real: real ?? entry };
}

/** True when `plain` names (in an allowed parent) a symlink whose resolution loops. */
async function isLoopingLink(policy: PathPolicy, plain: string): Promise<boolean> {
  try {
    const parent = await policy.resolveDirectory(path.dirname(path.isAbsolute(plain) ? plain : path.join((await policy.allowed())[0], plain)));
    const entry = path.join(parent, path.basename(plain));
    if (!(await fsp.lstat(entry)).isSymbolicLink()) return false;
    await fsp.realpath(entry);
    return false;
  } catch (error) {
    return errnoCode(error) === 'ELOOP';
  }
}
