import { z } from 'zod';
import { defineTool } from '../context.js';
import { LOG_FORMAT, parseLog } from '../lib/parse.js';
import { assertNotOption, commitOf, workTreePath, ArgumentError } from '../lib/validate.js';
import { repoPath, repository, commitSchema, git, commitLink, progressByBytes } from './common.js';

export const gitLog = defineTool({
  name: 'git_log',
  title: 'Log',
  description:
    'Show the commit log, newest first: max_count commits per call (default 10), optionally between two dates, touching a path, ' +
    'or by an author, from HEAD or a given ref. Pass nextCursor back as cursor for the next page.',
  input: z.object({
    repo_path: repoPath,
    max_count: z.number().int().min(1).max(10_000).default(10).describe('Maximum number of commits to show'),
    start_timestamp: z.string().optional().describe("Only commits after this date: ISO 8601 ('2024-01-15T14:30:25'), relative ('2 weeks ago') or absolute ('2024-01-15')"),
    end_timestamp: z.string().optional().describe('Only commits before this date, same formats'),
    path: z.string().optional().describe('Only commits touching this file or directory'),
    author: z.string().optional().describe('Only commits whose author name or email matches this pattern'),
    ref: z.string().optional().describe('Start from this branch, tag or commit instead of HEAD'),
    cursor: z.string().optional().describe('nextCursor of the previous call'),
  }),
  output: z.object({
    repository,
    commits: z.array(commitSchema),
    nextCursor: z.string().optional().describe('Pass as cursor to get the next page'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    out.commits.length === 0
      ? 'No commits.'
      : out.commits.map((c) => `Commit: ${c.commit}\nAuthor: ${c.author} <${c.author_email}>\nDate: ${c.date}\nMessage: ${c.subject}\n`).join('\n') +
        (out.nextCursor ? `\n(more: cursor ${out.nextCursor})` : ''),
  async handler(args, ctx) {
    const repo = await ctx.repos.resolve(args.repo_path);
    // A cursor pins the starting commit, so pages stay consistent while the branch moves.
    let start: string;
    let skip = 0;
    if (args.cursor !== undefined) {
      const decoded = /^([0-9a-f]{40,64}):(\d+)$/.exec(ctx.cursor.decode(args.cursor));
      if (!decoded) throw new ArgumentError('Invalid cursor: use the nextCursor of the previous call.');
      [start, skip] = [decoded[1], Number(decoded[2])];
    } else {
      try {
        start = await commitOf(repo, args.ref ?? 'HEAD', ctx.signal);
      } catch (error) {
        if (args.ref === undefined) return ctx.result({ repository: repo.root, commits: [] }); // no commits yet
        throw error;
      }
    }
    const filters: string[] = [];
    if (args.start_timestamp !== undefined) filters.push(`--since=${assertNotOption(args.start_timestamp, 'start_timestamp')}`);
    if (args.end_timestamp !== undefined) filters.push(`--until=${assertNotOption(args.end_timestamp, 'end_timestamp')}`);
    if (args.author !== undefined) filters.push(`--author=${assertNotOption(args.author, 'author')}`);
    const paths = args.path === undefined ? [] : [await workTreePath(repo, args.path)];
    const { stdout } = await git(
      ctx,
      repo,
      ['log', LOG_FORMAT, `--max-count=${args.max_count + 1}`, `--skip=${skip}`, ...filters, '--end-of-options', start, '--', ...paths],
      { literalPathspecs: true, onData: progressByBytes(ctx) },
    );
    const commits = parseLog(stdout.toString('utf8'));
    const more = commits.length > args.max_count;
    const page = commits.slice(0, args.max_count);
    return ctx.result(
      { repository: repo.root, commits: page, ...(more ? { nextCursor: ctx.cursor.encode(`${start}:${skip + args.max_count}`) } : {}) },
      page.slice(0, 100).map((c) => commitLink(ctx, repo, c)),
    );
  },
});
