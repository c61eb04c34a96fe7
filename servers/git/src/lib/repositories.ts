import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { findRepoRoot } from './repo.js';

/** The work-tree tops of the --repository paths; a path that is not in a repository is skipped with a reason. */
export async function resolveRepositories(inputs: readonly string[]): Promise<{ repositories: string[]; skipped: { input: string; reason: string }[] }> {
  const repositories: string[] = [];
  const skipped: { input: string; reason: string }[] = [];
  for (const input of inputs) {
    const real = await realpath(path.resolve(input)).catch(() => undefined);
    if (real === undefined) {
      skipped.push({ input, reason: 'does not exist' });
      continue;
    }
    if (!(await stat(real)).isDirectory()) {
      skipped.push({ input, reason: 'is not a directory' });
      continue;
    }
    const root = await findRepoRoot(real);
    if (root === undefined) {
      skipped.push({ input, reason: 'is not inside a git repository' });
      continue;
    }
    if (!repositories.includes(root)) repositories.push(root);
  }
  return { repositories, skipped };
}
