import { readOwnFileSync } from '@mcp-reference/shared/core';
import { AccessError } from './access-error.js';

/** Refs, HEAD, a .git file, commondir, alternates: a few bytes each. */
const SMALL_FILE_BYTES = 1024 * 1024;
/** packed-refs of a repository with a few hundred thousand tags is tens of megabytes. */
export const PACKED_REFS_BYTES = 256 * 1024 * 1024;

/**
 * A file of a git directory that this server reads itself (a ref, HEAD, packed-refs, a
 * `.git` file, `commondir`, `objects/info/alternates`): its text, or undefined when it
 * does not exist. It is read as a client's file is (readOwnFileSync): a FIFO there blocked
 * a thread of the pool for good, and four such calls stalled every repository of the server.
 * A FIFO, socket or device, or a file over `maxBytes`, is refused, naming the file; a
 * symbolic link is refused too, unless `symlink: 'empty'`: then it reads as '' (a
 * symlinked ref: its value unknown here, the caller asks git, which follows it).
 */
export function readGitFile(file: string, options: { maxBytes?: number; symlink?: 'refuse' | 'empty' } = {}): string | undefined {
  const read = readOwnFileSync(file, { maxBytes: options.maxBytes ?? SMALL_FILE_BYTES });
  if ('text' in read) return read.text;
  if ('absent' in read) return undefined;
  if (read.kind === 'symlink' && options.symlink === 'empty') return '';
  throw new AccessError(`${file} cannot be read: ${read.skipped}. This repository is refused until that file is an ordinary file again.`);
}
