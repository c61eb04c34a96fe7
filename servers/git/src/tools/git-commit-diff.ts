import { z } from 'zod';
import { defineTool } from '../context.js';
import { LOG_FORMAT, parseLog, parseDiff } from '../lib/parse.js';
import { commitOf, workTreePath } from '../lib/validate.js';
import { repoPath, repository, commitSchema, diffFileSchema, git, DIFF_SAFETY } from './common.js';

/** Hunks in one page, and diff lines: a page ends at whichever comes first. */
const PAGE_HUNKS = 50;
const PAGE_LINES = 1000;

/**
 * The diff views' pager (app-only: hosts show it to the view, not to the model): a
 * commit's diff against its first parent, a page of hunks at a time from `offset` (a hunk
 * index), optionally one file only. The same git safety as git_show: no external diff,
 * no textconv, revisions and paths never read as options.
 */
export const gitCommitDiff = defineTool({
  name: 'git_commit_diff',
  title: 'A page of a commit diff, for the diff views',
  description: `A commit's diff, ${PAGE_HUNKS} hunks (at most ${PAGE_LINES} lines) at a time from the hunk index offset; optionally one file.`,
  input: z.object({
    repo: repoPath,
    rev: z.string().describe('The commit (hash, branch, tag)'),
    file: z.string().optional().describe('Only this file (relative to the repository top)'),
    offset: z.number().int().min(0).default(0).describe('Index of the first hunk'),
  }),
  output: z.object({
    repository,
    commit: commitSchema,
    message: z.string(),
    files: z.array(diffFileSchema.omit({ hunks: true })),
    hunks: z.array(z.object({ file: z.string(), header: z.string(), lines: z.array(z.string()) })),
    offset: z.number().int(),
    next_offset: z.number().int().nullable(),
    total_hunks: z.number().int(),
    truncated: z.boolean().describe('The diff was longer than the output limit'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  visibility: ['app'],
  render: (out) =>
    `${out.commit.commit.slice(0, 12)} ${out.commit.subject}: hunks ${out.offset + 1}-${out.offset + out.hunks.length} of ${out.total_hunks}`,
  async handler({ repo: repoArg, rev, file, offset }, ctx) {
    const repo = await ctx.repos.resolve(repoArg);
    const sha = await commitOf(repo, rev, ctx.signal);
    const paths = file === undefined ? [] : [await workTreePath(repo, file)];
    const [meta, body, patch] = await Promise.all([
      git(ctx, repo, ['log', '-1', LOG_FORMAT, '--end-of-options', sha]),
      git(ctx, repo, ['log', '-1', '--format=%B', '--end-of-options', sha]),
      git(ctx, repo, ['show', ...DIFF_SAFETY, '--format=', '--first-parent', '--end-of-options', sha, '--', ...paths], { maxBytes: ctx.maxOutputBytes }),
    ]);
    const text = patch.stdout.toString('utf8').replace(/^\n+/, '');
    const all = splitHunks(text);
    const hunks: typeof all = [];
    let lines = 0;
    for (const hunk of all.slice(offset)) {
      if (hunks.length === PAGE_HUNKS || (hunks.length > 0 && lines + hunk.lines.length > PAGE_LINES)) break;
      hunks.push(hunk);
      lines += hunk.lines.length;
    }
    const end = offset + hunks.length;
    return ctx.result({
      repository: repo.root,
      commit: parseLog(meta.stdout.toString('utf8'))[0],
      message: body.stdout.toString('utf8').trim(),
      files: parseDiff(text).map(({ hunks: _hunks, ...rest }) => rest),
      hunks,
      offset,
      next_offset: end < all.length ? end : null,
      total_hunks: all.length,
      truncated: patch.truncated,
    });
  },
});

/** Every hunk of a unified diff, with the file it belongs to. */
function splitHunks(text: string): { file: string; header: string; lines: string[] }[] {
  const hunks: { file: string; header: string; lines: string[] }[] = [];
  let file = '';
  let current: { file: string; header: string; lines: string[] } | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = undefined;
      file = line.replace(/^diff --git ("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/, '$2').replace(/^"?b\//, '').replace(/"$/, '');
    } else if (line.startsWith('@@')) {
      current = { file, header: line, lines: [] };
      hunks.push(current);
    } else if (current && /^[ +\-\\]/.test(line)) {
      current.lines.push(line);
    }
  }
  return hunks;
}
