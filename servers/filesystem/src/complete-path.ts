import { readdir } from 'node:fs/promises';
import type { BaseContext } from '@mcp-reference/shared';
import type { FsContext } from './context.js';
import { pathFlavor, type PathFlavor } from './lib/path-flavor.js';

/**
 * Completes an absolute path argument one segment at a time, from the allowed
 * directories down; listing goes through the policy, so nothing outside is revealed.
 * Either separator may be typed where the platform takes both; candidates use the
 * platform's own.
 */
export async function completePath(
  typed: string,
  ctx: BaseContext & FsContext,
  only?: 'directory',
  flavor: PathFlavor = pathFlavor(),
): Promise<string[]> {
  const allowed = await ctx.policy.allowed().catch(() => [] as string[]);
  const split = splitTyped(typed, flavor);
  if (split === undefined) return allowed.map((dir) => withSeparator(dir, flavor));
  const parentDir = flavor.path.resolve(split.parent);
  if (!allowed.some((dir) => within(dir, parentDir, flavor))) {
    const normalized = normalizeSeparators(typed, flavor);
    return allowed.filter((dir) => startsWith(dir, normalized, flavor)).map((dir) => withSeparator(dir, flavor));
  }
  const real = await ctx.policy.resolveDirectory(parentDir).catch(() => undefined);
  if (real === undefined) return [];
  const entries = await readdir(real, { withFileTypes: true }).catch(() => []);
  return completeEntries(
    entries.filter((entry) => only !== 'directory' || entry.isDirectory()).map((entry) => ({ name: entry.name, directory: entry.isDirectory() })),
    split,
    flavor,
  );
}

/**
 * What was typed, as the directory to list (ending in a separator, the platform's) and
 * the start of a name in it; undefined when it is not an absolute path yet, or is a bare
 * root ("", "/", "C:"), which completes to the allowed directories.
 */
export function splitTyped(typed: string, flavor: PathFlavor): { parent: string; prefix: string } | undefined {
  const { path } = flavor;
  const p = normalizeSeparators(typed, flavor);
  if (p === '' || p === path.sep || !path.isAbsolute(p)) return undefined;
  if (p.endsWith(path.sep)) return { parent: p, prefix: '' };
  return { parent: withSeparator(path.dirname(p), flavor), prefix: path.basename(p) };
}

/** The entries of the listed directory that start with the typed name, as full candidates, sorted. */
export function completeEntries(
  entries: readonly { name: string; directory: boolean }[],
  { parent, prefix }: { parent: string; prefix: string },
  flavor: PathFlavor,
): string[] {
  return entries
    .filter((entry) => startsWith(entry.name, prefix, flavor))
    .map((entry) => `${parent}${entry.name}${entry.directory ? flavor.path.sep : ''}`)
    .sort();
}

/** `child` is `dir` or inside it; path.win32.relative already ignores case. */
function within(dir: string, child: string, { path }: PathFlavor): boolean {
  const relative = path.relative(dir, child);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

function startsWith(name: string, prefix: string, flavor: PathFlavor): boolean {
  return flavor.caseInsensitive ? name.toLowerCase().startsWith(prefix.toLowerCase()) : name.startsWith(prefix);
}

/** Windows takes "/" and "\" alike; its candidates use "\". */
function normalizeSeparators(typed: string, flavor: PathFlavor): string {
  return flavor.path.sep === '\\' ? typed.replaceAll('/', '\\') : typed;
}

/** `dir` with one trailing separator (a drive root such as "C:\" already has it). */
function withSeparator(dir: string, flavor: PathFlavor): string {
  return dir.endsWith(flavor.path.sep) ? dir : `${dir}${flavor.path.sep}`;
}
