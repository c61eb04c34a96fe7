import { z } from 'zod';
import { defineTool } from '../context.js';
import { BRANCH_FORMAT, parseBranches } from '../lib/parse.js';
import { commitOf } from '../lib/validate.js';
import { repoPath, repository, git, branchLink, REFS_PAGE, refsAfter, refsCursor } from './common.js';

export const gitBranch = defineTool({
  name: 'git_branch',
  title: 'List Branches',
  description: `List branches: 'local', 'remote' or 'all', optionally only those that contain (or do not contain) a commit. More than ${REFS_PAGE.toLocaleString('en')} come in pages: pass nextCursor back as cursor.`,
  input: z.object({
    repo_path: repoPath,
    branch_type: z.enum(['local', 'remote', 'all']).describe("Whether to list local branches ('local'), remote branches ('remote') or all branches ('all')"),
    contains: z.string().optional().describe('Only branches that contain this commit'),
    not_contains: z.string().optional().describe('Only branches that do NOT contain this commit'),
    cursor: refsCursor,
  }),
  output: z.object({
    repository,
    branches: z.array(
      z.object({
        name: z.string(),
        ref: z.string(),
        commit: z.string(),
        current: z.boolean(),
        remote: z.boolean(),
        upstream: z.string().nullable(),
        subject: z.string(),
      }),
    ),
    nextCursor: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    (out.branches.map((b) => `${b.current ? '* ' : '  '}${b.remote ? `remotes/${b.name}` : b.name}`).join('\n') || 'No branches.') +
    (out.nextCursor ? `\n(more branches: call again with cursor ${out.nextCursor})` : ''),
  async handler({ repo_path, branch_type, contains, not_contains, cursor }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const filters: string[] = [];
    if (contains !== undefined) filters.push(`--contains=${await commitOf(repo, contains, ctx.signal)}`);
    if (not_contains !== undefined) filters.push(`--no-contains=${await commitOf(repo, not_contains, ctx.signal)}`);
    const patterns = branch_type === 'local' ? ['refs/heads'] : branch_type === 'remote' ? ['refs/remotes'] : ['refs/heads', 'refs/remotes'];
    const { stdout } = await git(ctx, repo, ['for-each-ref', BRANCH_FORMAT, ...filters, '--', ...patterns]);
    const all = parseBranches(stdout.toString('utf8'));
    const page = await ctx.page((after) => (after === undefined ? all : refsAfter(all, after, 'refname')), { cursor, keyOf: (b) => b.ref, limit: REFS_PAGE });
    const branches = page.items;
    return ctx.result(
      { repository: repo.root, branches, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) },
      branches.filter((b) => !b.remote).slice(0, 100).map((b) => branchLink(ctx, repo, b.name)),
    );
  },
});
