import { z } from 'zod';
import { defineTool } from '../context.js';
import { BRANCH_FORMAT, parseBranches } from '../lib/parse.js';
import { commitOf } from '../lib/validate.js';
import { repoPath, repository, git, branchLink } from './common.js';

export const gitBranch = defineTool({
  name: 'git_branch',
  title: 'List Branches',
  description: "List branches: 'local', 'remote' or 'all', optionally only those that contain (or do not contain) a commit.",
  input: z.object({
    repo_path: repoPath,
    branch_type: z.enum(['local', 'remote', 'all']).describe("Whether to list local branches ('local'), remote branches ('remote') or all branches ('all')"),
    contains: z.string().optional().describe('Only branches that contain this commit'),
    not_contains: z.string().optional().describe('Only branches that do NOT contain this commit'),
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
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) => out.branches.map((b) => `${b.current ? '* ' : '  '}${b.remote ? `remotes/${b.name}` : b.name}`).join('\n') || 'No branches.',
  async handler({ repo_path, branch_type, contains, not_contains }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const filters: string[] = [];
    if (contains !== undefined) filters.push(`--contains=${await commitOf(repo, contains, ctx.signal)}`);
    if (not_contains !== undefined) filters.push(`--no-contains=${await commitOf(repo, not_contains, ctx.signal)}`);
    const patterns = branch_type === 'local' ? ['refs/heads'] : branch_type === 'remote' ? ['refs/remotes'] : ['refs/heads', 'refs/remotes'];
    const { stdout } = await git(ctx, repo, ['for-each-ref', BRANCH_FORMAT, ...filters, '--', ...patterns]);
    const branches = parseBranches(stdout.toString('utf8'));
    return ctx.result(
      { repository: repo.root, branches },
      branches.filter((b) => !b.remote).slice(0, 100).map((b) => branchLink(ctx, repo, b.name)),
    );
  },
});
