import { resourceNotFound, textContents } from '@mcp-reference/shared';
import type { BaseContext } from '@mcp-reference/shared';
import type { GitContext } from '../context.js';
import type { Repo } from '../lib/repo.js';
import { LOG_FORMAT, parseLog } from '../lib/parse.js';
import { commitOf } from '../lib/validate.js';

type Ctx = BaseContext & GitContext;

export async function repoOr404(ctx: Ctx, id: string, uri: string): Promise<Repo> {
  const repo = await ctx.repos.byId(id);
  if (!repo) throw resourceNotFound(uri, 'No allowed repository has that id; call resources/list.');
  return repo;
}

/** A ref's head commit and its recent log, as JSON. */
export async function refSummary(ctx: Ctx, repo: Repo, uri: string, ref: string, extra: Record<string, unknown>) {
  const commit = await commitOf(repo, ref, ctx.signal).catch(() => undefined);
  if (!commit) throw resourceNotFound(uri);
  const log = parseLog((await ctx.git.run(repo, ['log', LOG_FORMAT, '--max-count=20', '--end-of-options', commit], { signal: ctx.signal })).stdout.toString('utf8'));
  return [textContents(uri, JSON.stringify({ repository: repo.root, ...extra, commit, log }, null, 2), 'application/json')];
}
