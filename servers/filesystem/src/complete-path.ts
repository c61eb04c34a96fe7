import path from 'node:path';
import { readdir } from 'node:fs/promises';
import type { BaseContext } from '@mcp-reference/shared';
import type { FsContext } from './context.js';
import { isWithin } from './lib/path-policy.js';

/**
 * Completes an absolute path argument one segment at a time, from the allowed
 * directories down; listing goes through the policy, so nothing outside is revealed.
 */
export async function completePath(typed: string, ctx: BaseContext & FsContext, only?: 'directory'): Promise<string[]> {
  const allowed = await ctx.policy.allowed().catch(() => [] as string[]);
  if (typed === '' || typed === '/' || !path.isAbsolute(typed)) return allowed.map((dir) => `${dir}/`);
  const parent = typed.endsWith('/') ? typed : `${path.dirname(typed)}/`;
  const prefix = typed.endsWith('/') ? '' : path.basename(typed);
  if (!allowed.some((dir) => isWithin(dir, parent.length > 1 ? parent.slice(0, -1) : parent))) {
    return allowed.filter((dir) => dir.startsWith(typed)).map((dir) => `${dir}/`);
  }
  const real = await ctx.policy.resolveDirectory(parent).catch(() => undefined);
  if (real === undefined) return [];
  const entries = await readdir(real, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.name.startsWith(prefix) && (only !== 'directory' || entry.isDirectory()))
    .map((entry) => `${parent}${entry.name}${entry.isDirectory() ? '/' : ''}`)
    .sort();
}
