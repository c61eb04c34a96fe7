import path from 'node:path';
import { lstat, realpath } from 'node:fs/promises';
import { isWithinPath } from '@mcp-reference/shared/core';
import { runGit, GitError } from './git-runner.js';
import type { Repo } from './repo.js';
import { readRefFile } from './watch-ref.js';

/** A client value git would have read as an option, or one that cannot be a name. */
export class ArgumentError extends Error {
  override name = 'ArgumentError';
}

/** Refuses values git could take for an option, and control characters. */
export function assertNotOption(value: string, what: string): string {
  if (value.startsWith('-')) throw new ArgumentError(`${what} "${value}" starts with "-"; git would read it as an option. Refused.`);
  if (/[\0\n\r]/.test(value)) throw new ArgumentError(`${what} contains a NUL or newline. Refused.`);
  return value;
}

/**
 * A revision the client names (branch, tag, commit, `HEAD~2`, `A..B` for diffs): never an
 * option, and it must resolve in the repository (`rev-parse --verify`).
 */
export async function verifyRevision(repo: Repo, revision: string, what = 'revision', signal?: AbortSignal): Promise<string> {
  assertNotOption(revision, what);
  if (revision.trim() === '') throw new ArgumentError(`${what} is empty.`);
  const sides = /^(.*?)(\.\.\.?)(.*)$/.exec(revision);
  const parts = sides && !revision.includes(':') ? [sides[1], sides[3]].filter((side) => side !== '') : [revision];
  for (const part of parts) {
    assertNotOption(part, what);
    try {
      await runGit(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${part}^{object}`], { signal });
    } catch (error) {
      if (error instanceof GitError && /cancelled/.test(error.message)) throw error;
      throw new ArgumentError(`${what} "${part}" is not a commit, branch or tag in ${repo.root}. Use git_branch or git_log to see what exists.`);
    }
  }
  return revision;
}

/** The full commit id of a revision. HEAD is read from the ref files (no git process): the common case, made cheap. */
export async function commitOf(repo: Repo, revision: string, signal?: AbortSignal): Promise<string> {
  assertNotOption(revision, 'revision');
  if (revision === 'HEAD') {
    const head = await readRefFile(repo, 'HEAD');
    const target = /^ref: (refs\/heads\/\S+)$/.exec(head);
    const id = target ? await readRefFile(repo, target[1]) : head;
    if (/^[0-9a-f]{40}$/.test(id)) return id;
  }
  const { stdout } = await runGit(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`], { signal, okCodes: [1] });
  const id = stdout.toString().trim();
  if (!/^[0-9a-f]{40,64}$/.test(id)) throw new ArgumentError(`"${revision}" is not a commit in ${repo.root}.`);
  return id;
}

/** A new branch or tag name that git accepts (`check-ref-format`) and that is not an option. */
export async function checkRefName(repo: Repo, name: string, kind: 'branch' | 'tag'): Promise<string> {
  assertNotOption(name, `${kind} name`);
  const full = kind === 'branch' ? `refs/heads/${name}` : `refs/tags/${name}`;
  try {
    await runGit(repo, ['check-ref-format', full]);
  } catch {
    throw new ArgumentError(`"${name}" is not a valid ${kind} name (see git check-ref-format).`);
  }
  if (name === 'HEAD') throw new ArgumentError('"HEAD" cannot be a branch or tag name.');
  return name;
}

/**
 * A path the client names, relative to the work tree (or absolute inside it). Returns
 * the path relative to the root with `/` separators. `..`, absolute paths elsewhere and
 * symlinks that lead out are refused (the official server's CVE-2026-27735 was
 * `git_add` with `../`).
 */
export async function workTreePath(repo: Repo, requested: string, options: { mustExist?: boolean; cwd?: string } = {}): Promise<string> {
  const { absolute, relative } = workTreeRelative(repo.root, requested, options.cwd);
  const exists = (p: string) => lstat(p).then(() => true, () => false);
  // The deepest existing ancestor must still resolve inside (a symlinked directory could lead out).
  let probe = absolute;
  if (!(await exists(absolute))) {
    if (options.mustExist) throw new ArgumentError(`${requested} does not exist in ${repo.root}.`);
    // Found from the root down, not from the path up: a path of 150,000 missing levels
    // took 150,000 lstats of a 300 KB string, two minutes.
    probe = repo.root;
    for (const part of relative.split('/')) {
      const next = path.join(probe, part);
      if (part === '' || !(await exists(next))) break;
      probe = next;
    }
  }
  const real = await realpath(probe).catch(() => undefined);
  // A dangling symlink as the last component is fine for git (it adds the link itself).
  if (real !== undefined && probe !== absolute && !isWithinPath(repo.root, real)) {
    throw new ArgumentError(`${requested} passes through a symlink that leads outside the work tree. Refused.`);
  }
  return relative === '' ? '.' : relative;
}

/**
 * The pure part of `workTreePath`: `requested` (relative to `base`, or absolute, with
 * either separator on Windows) as an absolute path and as the path relative to `root`
 * with "/" separators. The platform's rules are parameters, so Windows' (drive letters,
 * case-insensitive names, so ".GIT" is ".git") are tested on any system.
 */
export function workTreeRelative(
  root: string,
  requested: string,
  base: string = root,
  rules: { path: path.PlatformPath; caseInsensitive: boolean } = { path, caseInsensitive: process.platform === 'win32' || process.platform === 'darwin' },
): { absolute: string; relative: string } {
  const p = rules.path;
  if (typeof requested !== 'string' || requested === '' || /[\0\n\r]/.test(requested)) {
    throw new ArgumentError('A path must be a non-empty string without NUL or newlines.');
  }
  if (requested.startsWith('-')) throw new ArgumentError(`The path "${requested}" starts with "-"; git would read it as an option. Write ./${requested} for a file with that name.`);
  const absolute = p.resolve(base, requested);
  const fromRoot = p.relative(root, absolute);
  if (fromRoot === '..' || fromRoot.startsWith(`..${p.sep}`) || p.isAbsolute(fromRoot)) {
    throw new ArgumentError(`${requested} is outside the repository's work tree (${root}). Refused.`);
  }
  const relative = fromRoot.split(p.sep).join('/');
  const top = (rules.caseInsensitive ? relative.toLowerCase() : relative).split('/')[0];
  // Where names ignore case, ".GIT" and ".git." are .git too.
  if (top === '.git' || (rules.caseInsensitive && /^\.git[. ]*$/.test(top))) throw new ArgumentError(`${requested} is inside .git. Refused.`);
  return { absolute, relative };
}

/** A path inside a tree object at a ref (no file system involved): normalized, never leaving the top. */
export function treePath(requested: string): string {
  if (typeof requested !== 'string' || requested === '' || /[\0\n\r]/.test(requested)) {
    throw new ArgumentError('A path must be a non-empty string without NUL or newlines.');
  }
  if (requested.startsWith('-')) throw new ArgumentError(`The path "${requested}" starts with "-"; git would read it as an option. Write ./${requested} for a file with that name.`);
  // Tree paths use "/" whatever the platform; a drive path cannot name anything in a tree.
  if (/^[A-Za-z]:[\\/]/.test(requested) || /^[\\/]{2}/.test(requested)) {
    throw new ArgumentError(`${requested} is an absolute path. Give a path relative to the repository's top, such as src/app.ts.`);
  }
  const normal = path.posix.normalize(requested.replace(/\\/g, '/')).replace(/^\.\/+/, '').replace(/\/+$/, '');
  if (normal === '..' || normal.startsWith('../') || normal.startsWith('/')) {
    throw new ArgumentError(`${requested} leaves the repository. Give a path relative to the repository's top.`);
  }
  return normal === '.' ? '' : normal;
}
