import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isWithinPath } from '@mcp-reference/shared/core';
import { driverOverrides, GitError, runGit } from './git-runner.js';
import { readGitFile } from './git-file.js';

/** Where git runs: a work tree and its git directory (and, when known, the common one). */
interface Target {
  root: string;
  gitDir: string;
  commonDir?: string;
}

/** Beyond this many nested repositories (submodules of submodules...) a call is refused. */
const MAX_REPOSITORIES = 64;

/** One entry of `git config --list --show-scope --show-origin -z`. */
interface ConfigEntry {
  scope: string;
  origin: string;
  name: string;
  value: string | undefined;
}

async function listConfig(target: Target, signal?: AbortSignal): Promise<ConfigEntry[]> {
  const { stdout } = await runGit(target, ['config', '--list', '--show-scope', '--show-origin', '-z'], { signal, okCodes: [1] });
  const fields = stdout.toString('utf8').split('\0');
  const entries: ConfigEntry[] = [];
  // Each entry is "scope\0origin\0name\nvalue\0" (no "\nvalue" for a key without one).
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const newline = fields[i + 2].indexOf('\n');
    const name = newline === -1 ? fields[i + 2] : fields[i + 2].slice(0, newline);
    entries.push({ scope: fields[i], origin: fields[i + 1], name, value: newline === -1 ? undefined : fields[i + 2].slice(newline + 1) });
  }
  return entries;
}

/** The gitlinks last read from each index, by git directory, with the index file's stamp. */
export type GitlinkCache = Map<string, { stamp: string; links: string[] }>;

/**
 * What the last listing of each repository's config found, by git directory: the names
 * its own config defines, and the files that listing depended on with their stamps.
 */
export type ConfigListingCache = Map<string, { files: string[]; stamp: string; names: string[] }>;

/** What one call may reuse from earlier calls (each may be left out: read afresh). */
export interface OverrideCaches {
  gitlinks?: GitlinkCache;
  listings?: ConfigListingCache;
}

/**
 * A listing is kept only when every file it depends on last changed this long before the
 * listing started. A file changed while git read it would otherwise be kept with its new
 * stamp and what git read before the change; and two writes within one tick of a coarse
 * file clock (2 s on FAT) could leave a file with the same stamp and other content.
 */
const SETTLED_MS = 2000;

/** Identity, size and both times of each file to the nanosecond ("absent" if none), and the newest time among them. */
async function stampOf(files: readonly string[]): Promise<{ stamps: string[]; newestMs: number }> {
  let newestMs = 0;
  const stamps = await Promise.all(
    files.map((file) =>
      stat(file, { bigint: true }).then(
        (s) => {
          newestMs = Math.max(newestMs, Number(s.mtimeNs / 1_000_000n), Number(s.ctimeNs / 1_000_000n));
          return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
        },
        () => 'absent',
      ),
    ),
  );
  return { stamps, newestMs };
}

/**
 * The names the repository's own config (local and worktree scope, includes followed)
 * defines. A listing is reused while every file it came from, every file an include
 * names (present or not) and every file git would read as this repository's config (the
 * common config, config.worktree, even when absent) is unchanged: identity, size and
 * times (git writes config through a lock file and a rename, so a write changes its
 * identity too). It is kept only once those files have stood still for SETTLED_MS
 * before the listing. Listings with an includeIf (its condition can turn on with no file
 * changing: a checkout, for onbranch) and git directories that point to another common
 * directory without the caller knowing it are listed afresh every time.
 */
async function localConfigNames(target: Target, signal: AbortSignal | undefined, cache: ConfigListingCache | undefined): Promise<string[]> {
  const hit = cache?.get(target.gitDir);
  if (hit !== undefined && (await stampOf(hit.files)).stamps.join('|') === hit.stamp) return hit.names;
  const common = target.commonDir ?? target.gitDir;
  const commondirFile = path.join(target.gitDir, 'commondir');
  const files = new Set([path.join(common, 'config'), path.join(target.gitDir, 'config.worktree'), commondirFile]);
  const names: string[] = [];
  let reusable = cache !== undefined;
  const listedAt = Date.now();
  for (const entry of await listConfig(target, signal)) {
    // The repository's own config (and what it includes) is untrusted; the user's is not.
    if (entry.scope !== 'local' && entry.scope !== 'worktree' && entry.scope !== 'unknown') continue;
    names.push(entry.name);
    if (entry.origin.startsWith('file:')) files.add(path.resolve(target.root, entry.origin.slice(5)));
    else reusable = false;
    if (/^includeif\./i.test(entry.name)) reusable = false;
    if (/^include(if\..*)?\.path$/i.test(entry.name)) {
      const included = includeTarget(entry, target);
      if (included && isWithinPath(target.root, included) && !isWithinPath(target.gitDir, included)) {
        throw new GitError(
          `The config of ${target.root} includes ${included}, a file of its work tree that any checkout or reset would change. ` +
            'Refusing to run git in it; move the include into the .git directory.',
        );
      }
      if (included) files.add(included);
    }
  }
  if (cache !== undefined) {
    const list = [...files];
    const { stamps, newestMs } = await stampOf(list);
    const unknownCommonDir = target.commonDir === undefined && stamps[list.indexOf(commondirFile)] !== 'absent';
    if (reusable && !unknownCommonDir && newestMs < listedAt - SETTLED_MS) cache.set(target.gitDir, { files: list, stamp: stamps.join('|'), names });
    else cache.delete(target.gitDir);
  }
  return names;
}

/**
 * Paths of the submodules git may recurse into: gitlinks of the index (`git ls-files -s
 * -z`), read again only when the index file changed (git replaces it on every write).
 */
async function gitlinks(target: Target, cache: GitlinkCache | undefined, signal?: AbortSignal): Promise<string[]> {
  const [stamp] = (await stampOf([path.join(target.gitDir, 'index')])).stamps;
  if (stamp === 'absent') return [];
  const hit = cache?.get(target.gitDir);
  if (hit?.stamp === stamp) return hit.links;
  const { stdout } = await runGit(target, ['ls-files', '--stage', '-z'], { signal });
  const links: string[] = [];
  for (const record of stdout.toString('utf8').split('\0')) {
    if (record.startsWith('160000 ')) links.push(record.slice(record.indexOf('\t') + 1));
  }
  cache?.set(target.gitDir, { stamp, links });
  return links;
}

/**
 * The git directory git uses for the submodule checked out at `dir`, as
 * `is_submodule_modified` finds it (`dir/.git`, a directory or a "gitdir:" file), or
 * undefined when it is not checked out (git does not recurse then).
 */
async function submoduleGitDir(dir: string): Promise<string | undefined> {
  const dotGit = path.join(dir, '.git');
  const info = await stat(dotGit).catch(() => undefined);
  if (info === undefined) return undefined;
  if (info.isDirectory()) return dotGit;
  const match = /^gitdir: (.+)$/m.exec(readGitFile(dotGit) ?? '');
  return match ? path.resolve(dir, match[1].trim()) : undefined;
}

/**
 * Where an include of the repository's config leads: git resolves a relative path
 * against the directory of the file that includes it, and `~/` against the home directory.
 */
function includeTarget(entry: ConfigEntry, target: Target): string | undefined {
  if (!entry.value || !entry.origin.startsWith('file:')) return undefined;
  const value = entry.value.startsWith('~/') ? path.join(os.homedir(), entry.value.slice(2)) : entry.value;
  return path.resolve(path.dirname(path.resolve(target.root, entry.origin.slice(5))), value);
}

/**
 * The `-c` settings that switch off every filter, textconv, external diff and merge
 * driver the repository's own config defines, checked at each call (a reset or a
 * checkout can change what the config includes: see `localConfigNames` for when a
 * listing is reused), and of every checked-out submodule
 * git could recurse into, submodules of submodules too: a submodule's own config
 * (`.git/modules/<name>/config`) is read by the `git status` that git runs inside it,
 * and settings given with `-c` reach that process (GIT_CONFIG_PARAMETERS) while a
 * name they do not mention would not be covered.
 *
 * Config names are case-insensitive in their section and key, case-sensitive in the
 * subsection: `filter.x` and `filter.X` are two drivers, and each one defined is
 * switched off as git spells it. Drivers of the user's own (global, system) config are
 * trusted and left alone.
 *
 * Refused: a repository whose config includes a file from its own work tree (a checkout
 * would change the config under a running git), and a tree of more than 64 nested
 * repositories.
 */
export async function untrustedOverrides(top: Target, signal?: AbortSignal, caches: OverrideCaches = {}): Promise<string[]> {
  const names: string[] = [];
  const seen = new Set<string>();
  const queue: Target[] = [top];
  while (queue.length > 0) {
    const target = queue.shift() as Target;
    if (seen.has(target.gitDir)) continue;
    seen.add(target.gitDir);
    if (seen.size > MAX_REPOSITORIES) throw new GitError(`${top.root} has more than ${MAX_REPOSITORIES} nested submodules; refusing to work in it.`);
    names.push(...(await localConfigNames(target, signal, caches.listings)));
    for (const link of await gitlinks(target, caches.gitlinks, signal)) {
      const dir = path.join(target.root, link);
      const gitDir = await submoduleGitDir(dir);
      if (gitDir !== undefined) queue.push({ root: dir, gitDir });
    }
  }
  return driverOverrides(names);
}
