import { z } from 'zod';
import { defineTool } from '../context.js';
import { LOG_FORMAT, parseLog } from '../lib/parse.js';
import { DEFAULT_TIMEOUT_MS, GitError } from '../lib/git-runner.js';
import { assertNotOption, commitOf, workTreePath, ArgumentError } from '../lib/validate.js';
import { repoPath, repository, commitSchema, commitLink } from './common.js';

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
  view: 'ui://git/log',
  render: (out) =>
    out.commits.length === 0
      ? 'No commits.'
      : out.commits.map((c) => `Commit: ${c.commit}\nAuthor: ${c.author} <${c.author_email}>\nDate: ${c.date}\nMessage: ${c.subject}\n`).join('\n') +
        (out.nextCursor ? `\n(more: cursor ${out.nextCursor})` : ''),
  async handler(args, ctx) {
    const repo = await ctx.repos.resolve(args.repo_path);
    // A cursor pins the starting commit (pages stay consistent while the branch moves) and
    // names the git process still paused after the previous page, if it is open.
    let start: string;
    let skip = 0;
    let streamId: string | undefined;
    if (args.cursor !== undefined) {
      const decoded = /^([0-9a-f]{40,64}):(\d+)(?::([0-9a-f-]{36}))?$/.exec(ctx.cursor.decode(args.cursor));
      if (!decoded) throw new ArgumentError('Invalid cursor: use the nextCursor of the previous call.');
      [start, skip, streamId] = [decoded[1], Number(decoded[2]), decoded[3]];
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
    const walk = ['log', LOG_FORMAT, ...filters, '--end-of-options', start, '--', ...paths];
    const key = `${repo.gitDir}\0${walk.join('\0')}`;
    let stream = streamId === undefined ? undefined : ctx.git.streams.find(streamId, key, skip);
    if (!stream) {
      // No open stream at this position (first page, expired, or a page asked twice): walk to it.
      const skipped = skip > 0 ? [`--skip=${skip}`] : [];
      stream = await ctx.git.streams.start(repo, ['log', LOG_FORMAT, ...skipped, ...walk.slice(2)], { key, position: skip, literalPathspecs: true, signal: ctx.signal });
    }
    stream.busy = true;
    // The same time limit as every other git call; cancellation and session end abort it too.
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(DEFAULT_TIMEOUT_MS)]);
    let page: ReturnType<typeof parseLog>;
    let more: boolean;
    try {
      page = parseLog((await stream.take(args.max_count, signal, (ready) => void ctx.progress(ready, args.max_count, `${ready} commits read`))).join('\x1e'));
      more = await stream.more(signal);
    } catch (error) {
      if (signal.aborted && !ctx.signal.aborted) {
        throw new GitError(`git log took longer than ${DEFAULT_TIMEOUT_MS / 1000} s and was stopped. Narrow it (path, author, dates, a smaller max_count).`);
      }
      throw error;
    } finally {
      stream.busy = false;
    }
    if (!more) ctx.git.streams.drop(stream.id);
    return ctx.result(
      { repository: repo.root, commits: page, ...(more ? { nextCursor: ctx.cursor.encode(`${start}:${skip + page.length}:${stream.id}`) } : {}) },
      page.slice(0, 100).map((c) => commitLink(ctx, repo, c)),
    );
  },
});
