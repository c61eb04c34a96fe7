// Whether the database path can be opened as asked, checked before the server starts, so
// a bad path fails at once instead of failing every call later.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** Why `dbPath` cannot be opened (read-only, or read-write with `write`), or undefined. */
export function dbPathProblem(dbPath: string, write: boolean): string | undefined {
  let stat;
  try {
    stat = statSync(dbPath);
  } catch {
    stat = undefined;
  }
  if (!stat) {
    if (!write) return 'no such file (give --write to create it)';
    const dir = path.dirname(path.resolve(dbPath));
    try {
      if (!statSync(dir).isDirectory()) return `${dir} is not a directory`;
      accessSync(dir, constants.W_OK);
    } catch (error) {
      return `cannot create it: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? `no such directory ${dir}` : `${dir} is not writable`}`;
    }
    return undefined;
  }
  if (!stat.isFile()) return 'not a file';
  try {
    accessSync(dbPath, write ? constants.R_OK | constants.W_OK : constants.R_OK);
  } catch {
    return write ? 'not readable and writable (drop --write to read it, or fix its permissions)' : 'not readable';
  }
  return undefined;
}
