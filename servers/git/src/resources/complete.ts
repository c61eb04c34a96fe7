import type { BaseContext } from '@mcp-reference/shared';
import type { GitContext } from '../context.js';
import type { Repo } from '../lib/repo.js';
import { commitOf, treePath } from '../lib/validate.js';

type Ctx = BaseContext & GitContext;

/** The repository a completion is about: by URI id (`repo`) or by path (`repo_path`). */
export async function repoFromArguments(ctx: Ctx, args: Record<string, string>): Promise<Repo | undefined> {
  if (args.repo) return ctx.repos.byId(args.repo);
  if (args.repo_path) return ctx.repos.resolve(args.repo_path).catch(() => undefined);
  const all = await ctx.repos.repositories();
  return all.length === 1 ? all[0] : undefined;
}

export async function refNames(ctx: Ctx, repo: Repo, kinds: ('heads' | 'tags' | 'remotes')[], prefix: string): Promise<string[]> {
  const { stdout } = await ctx.git.run(repo, ['for-each-ref', '--format=%(refname:short)', '--count=500', '--', ...kinds.map((k) => `refs/${k}/${prefix}*`), ...kinds.map((k) => `refs/${k}/${prefix}*/**`)], { signal: ctx.signal });
  return [...new Set(stdout.toString('utf8').split('\n').filter((name) => name && name.startsWith(prefix)))].sort();
}

export const completeRepo = async (value: string, ctx: Ctx) =>
  (await ctx.repos.repositories()).map((repo) => repo.id).filter((id) => id.startsWith(value));

export const completeRepoPath = async (value: string, ctx: Ctx) =>
  (await ctx.repos.repositories()).map((repo) => repo.root).filter((root) => root.startsWith(value));

export function completeRefs(kinds: ('heads' | 'tags' | 'remotes')[]) {
  return async (value: string, ctx: Ctx, context: { arguments: Record<string, string> }) => {
    const repo = await repoFromArguments(ctx, context.arguments);
    return repo ? refNames(ctx, repo, kinds, value) : [];
  };
}

/** Paths at the ref already chosen, one segment at a time ("src/" then "src/a.ts"). */
export async function completeTreePath(value: string, ctx: Ctx, context: { arguments: Record<string, string> }): Promise<string[]> {
  const repo = await repoFromArguments(ctx, context.arguments);
  if (!repo) return [];
  const commit = await commitOf(repo, context.arguments.ref || 'HEAD', ctx.signal).catch(() => undefined);
  if (!commit) return [];
  let dir = '';
  try {
    const slash = value.lastIndexOf('/');
    dir = slash === -1 ? '' : treePath(value.slice(0, slash));
  } catch {
    return [];
  }
  const { stdout } = await ctx.git.run(repo, ['ls-tree', '-z', commit, '--', dir ? `${dir}/` : '.'], { signal: ctx.signal, literalPathspecs: true });
  const out: string[] = [];
  for (const row of stdout.toString('utf8').split('\0')) {
    const tab = row.indexOf('\t');
    if (tab === -1) continue;
    const type = row.split(' ')[1];
    const name = row.slice(tab + 1) + (type === 'tree' ? '/' : '');
    if (name.startsWith(value)) out.push(name);
  }
  return out;
}
