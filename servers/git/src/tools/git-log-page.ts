import { z } from 'zod';
import { defineTool } from '../context.js';
import { commitOf } from '../lib/validate.js';
import { gitLog } from './git-log.js';
import { repoPath, repository, commitSchema, git } from './common.js';

const PAGE = 200;

/**
 * The log view's pager (app-only: hosts show it to the view, not to the model): the next
 * commits after a git_log cursor, with the branches, tags and HEAD that point into the
 * log. Without a cursor, only the refs. Repository access is git_log's, unchanged.
 */
export const gitLogPage = defineTool({
  name: 'git_log_page',
  title: 'A page of the log, for the log view',
  description: `The next ${PAGE} commits after a git_log nextCursor, and the refs (branches, tags, HEAD) of the repository. Without cursor, only the refs.`,
  input: z.object({
    repo: repoPath,
    cursor: z.string().optional().describe('nextCursor of git_log or of the previous page'),
  }),
  output: z.object({
    repository,
    commits: z.array(commitSchema),
    nextCursor: z.string().optional(),
    refs: z.array(z.object({ name: z.string(), kind: z.enum(['head', 'branch', 'tag']), commit: z.string() })),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  visibility: ['app'],
  render: (out) => `${out.commits.length} commit(s), ${out.refs.length} ref(s)${out.nextCursor ? ', more follow' : ''}.`,
  async handler({ repo: repoArg, cursor }, ctx) {
    const repo = await ctx.repos.resolve(repoArg);
    let page: { commits: z.infer<typeof commitSchema>[]; nextCursor?: string } = { commits: [] };
    if (cursor !== undefined) {
      // git_log's own paging (cursor checks, time limit, the stream kept open between pages).
      const asStructured = { ...ctx, result: (structured: unknown) => ({ content: [], structuredContent: structured }) };
      const result = await gitLog.handler({ repo_path: repoArg, max_count: PAGE, cursor }, asStructured as never);
      if (result.isError) return result;
      page = result.structuredContent as typeof page;
    }
    const listed = await git(ctx, repo, ['for-each-ref', '--format=%(refname)%09%(objectname)%09%(*objectname)', 'refs/heads', 'refs/tags']);
    const refs = listed.stdout
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [ref, object, peeled] = line.split('\t');
        const tag = ref.startsWith('refs/tags/');
        return { name: ref.replace(/^refs\/(heads|tags)\//, ''), kind: tag ? ('tag' as const) : ('branch' as const), commit: peeled || object };
      });
    const head = await commitOf(repo, 'HEAD', ctx.signal).catch(() => undefined);
    if (head) refs.unshift({ name: 'HEAD', kind: 'head' as never, commit: head });
    return ctx.result({ repository: repo.root, commits: page.commits, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), refs });
  },
});
