import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Runs `work` with `message` in a file of its own (a fresh directory only this user can
 * read, removed afterwards), for `git commit -F <file>` / `git tag -F <file>`: the
 * message is never an argument, so never an option, and nothing is written to git's
 * stdin.
 */
export async function withMessageFile<T>(message: string, work: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mcp-server-git-'));
  try {
    const file = path.join(dir, 'MESSAGE');
    await writeFile(file, message, { mode: 0o600, flag: 'wx' });
    return await work(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
