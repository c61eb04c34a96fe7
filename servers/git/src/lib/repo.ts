import { lstatSync, realpathSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { isWithinPath, mapConcurrently, nodeCrypto, type DirectorySet } from '@mcp-reference/shared/core';
import { metadataOutside, type MetadataCache } from './metadata-guard.js';
import { AccessError } from './access-error.js';
import { readGitFile } from './git-file.js';

/** A repository this server may work in, with everything resolved to real paths. */
export interface Repo {
  /** The top of the work tree. */
  root: string;
  /** The git directory of this work tree (`.git`, or `.git/worktrees/x` for a linked worktree). */
  gitDir: string;
  /** Where refs, objects and packed-refs live (the main `.git` for a linked worktree). */
  commonDir: string;
  /** Stable, unique name used in resource URIs: `<dir name>-<8 hex of the path>`. */
  id: string;
}

export { AccessError };

export const NO_REPOSITORY =
  'No repository is configured. Start the server with --repository /path/to/repo (repeatable), ' +
  'or use a client that provides roots inside a git repository.';

export function repoId(root: string): string {
  const base = path.basename(root).replace(/[^A-Za-z0-9._-]/g, '_') || 'repo';
  return `${base}-${nodeCrypto().createHash('sha256').update(root).digest('hex').slice(0, 8)}`;
}

/** Whether `file` exists (a symbolic link counts, whatever it leads to). */
function entryExists(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** The real path of `file`, or undefined when it does not resolve. */
function realOrUndefined(file: string): string | undefined {
  try {
    return realpathSync.native(file);
  } catch {
    return undefined;
  }
}

/** The nearest ancestor of `dir` (itself included) with a `.git` entry. */
export async function findRepoRoot(dir: string): Promise<string | undefined> {
  let current = dir;
  for (;;) {
    if (entryExists(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/**
 * The repositories a session may use. `ceiling`: the --repository work trees (real paths).
 * Roots narrow: a root grants each allowed repository that contains it or that it
 * contains; roots that all lie outside grant nothing. With no ceiling, each root grants
 * the repository it lies in, or the repositories under it.
 */
export async function allowedAreas(ceiling: readonly string[], rootDirs: readonly string[] | undefined): Promise<string[]> {
  if (rootDirs === undefined || rootDirs.length === 0) return [...new Set(ceiling)];
  // Several at a time: a client may list thousands of roots.
  const roots = (await mapConcurrently(rootDirs, 8, (dir) => realpath(dir).catch(() => undefined))).filter((real) => real !== undefined);
  if (ceiling.length === 0) {
    const areas: string[] = [];
    for (const root of roots) areas.push((await findRepoRoot(root)) ?? root);
    return [...new Set(areas)];
  }
  return ceiling.filter((repo) => roots.some((root) => isWithinPath(repo, root) || isWithinPath(root, repo)));
}

/**
 * Resolves a client's `repo_path` (symlinks included) to the repository that holds it,
 * inside the allowed areas. A `.git` file (worktree, submodule) or a `commondir` that
 * leads outside every allowed area is refused: git would otherwise read and write there.
 */
export async function resolveRepo(requested: string, allowed: DirectorySet, cache?: MetadataCache): Promise<Repo> {
  const areas = allowed.dirs;
  if (areas.length === 0) throw new AccessError(NO_REPOSITORY);
  if (typeof requested !== 'string' || requested.trim() === '' || requested.includes('\0')) {
    throw new AccessError('repo_path must be the path of a repository (or a directory inside one).');
  }
  const absolute = path.isAbsolute(requested) ? requested : path.resolve(areas[0], requested);
  // Synchronous, like the reads of the git directory below (git-file.ts): metadata of a few
  // entries, which through the thread pool cost more than the call itself. No step opens a
  // file that could block.
  const real = realOrUndefined(absolute);
  if (real === undefined) throw new AccessError(`${requested} does not exist. Allowed repositories: ${allowed.describe(', ')}`);
  if (!statSync(real).isDirectory()) throw new AccessError(`${requested} is not a directory. Give the path of a repository.`);
  const inside = (p: string) => allowed.holds(p);
  if (!inside(real)) throw new AccessError(`${requested} is outside the allowed repositories: ${allowed.describe(', ')}`);
  const root = await findRepoRoot(real);
  if (root === undefined || !inside(root)) {
    throw new AccessError(`${requested} is not inside a git repository. Allowed repositories: ${allowed.describe(', ')}`);
  }
  const dotGit = path.join(root, '.git');
  const info = lstatSync(dotGit);
  let gitDir: string;
  if (info.isDirectory()) gitDir = realpathSync.native(dotGit);
  else if (info.isFile()) {
    const text = readGitFile(dotGit) ?? '';
    const match = /^gitdir: (.+)$/m.exec(text);
    if (!match) throw new AccessError(`${dotGit} is not a valid .git file.`);
    const target = realOrUndefined(path.resolve(root, match[1].trim()));
    if (target === undefined) throw new AccessError(`${dotGit} points to ${match[1].trim()}, which does not exist.`);
    gitDir = target;
  } else throw new AccessError(`${dotGit} is a symlink or special file; refusing to follow it.`);
  if (!inside(gitDir)) {
    throw new AccessError(`${root}'s .git points to ${gitDir}, outside the allowed repositories; refusing to use it.`);
  }
  let commonDir = gitDir;
  const common = readGitFile(path.join(gitDir, 'commondir'));
  if (common !== undefined) {
    const target = realOrUndefined(path.resolve(gitDir, common.trim()));
    if (target === undefined || !inside(target)) {
      throw new AccessError(`${root} is a worktree whose repository (${common.trim()}) is outside the allowed repositories; refusing to use it.`);
    }
    commonDir = target;
  }
  if (realOrUndefined(path.join(gitDir, 'HEAD')) === undefined) {
    throw new AccessError(`${gitDir} is not a git directory (no HEAD).`);
  }
  const escape = metadataOutside([gitDir, commonDir], path.join(commonDir, 'objects'), inside, cache);
  if (escape) throw new AccessError(escape);
  return { root, gitDir, commonDir, id: repoId(root) };
}
