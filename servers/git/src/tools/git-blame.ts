import { z } from 'zod';
import { defineTool } from '../context.js';
import { MAX_COMMIT_FIELD_CHARS, parseBlame } from '../lib/parse.js';
import { commitOf, treePath, ArgumentError } from '../lib/validate.js';
import { repoPath, repository, git, commitLink, fileLink, progressByBytes } from './common.js';

const MAX_LINES = 5_000;

export const gitBlame = defineTool({
  name: 'git_blame',
  title: 'Blame',
  description:
    `Show who last changed each line of a file, at a ref (default HEAD), optionally for a line range. At most ${MAX_LINES} lines per call: ` +
    'for longer files, ask for start_line/end_line ranges (a truncated result says where to continue).',
  input: z.object({
    repo_path: repoPath,
    file: z.string().describe('Path of the file, relative to the repository top'),
    ref: z.string().optional().describe('Branch, tag or commit (default HEAD)'),
    start_line: z.number().int().min(1).optional(),
    end_line: z.number().int().min(1).optional(),
  }),
  output: z.object({
    repository,
    file: z.string(),
    ref: z.string(),
    lines: z.array(
      z.object({
        line: z.number().int(),
        commit: z.string(),
        author: z.string(),
        author_email: z.string(),
        date: z.string(),
        summary: z.string(),
        original_line: z.number().int(),
        text: z.string(),
        truncated_fields: z
          .array(z.enum(['author', 'author_email', 'summary', 'text']))
          .optional()
          .describe(`Fields longer than ${MAX_COMMIT_FIELD_CHARS} characters, cut (they end in "…"): git_show has a whole message, git_file_at_ref a whole line`),
      }),
    ),
    truncated: z.boolean().describe('True when more lines follow: call again with start_line = next_line'),
    next_line: z.number().int().optional(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    out.lines.map((l) => `${l.commit.slice(0, 8)} (${l.author} ${l.date.slice(0, 10)} ${l.line}) ${l.text}`).join('\n') +
    (out.truncated ? `\n[more lines: start_line ${out.next_line}]` : ''),
  async handler({ repo_path, file, ref, start_line, end_line }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const relative = treePath(file);
    const refName = ref ?? 'HEAD';
    const commit = await commitOf(repo, refName, ctx.signal);
    const start = start_line ?? 1;
    if (end_line !== undefined && end_line < start) throw new ArgumentError('end_line must not be before start_line.');
    const last = Math.min(end_line ?? start + MAX_LINES - 1, start + MAX_LINES - 1);
    const { stdout } = await git(
      ctx,
      repo,
      ['blame', '--porcelain', '--no-textconv', `-L${start},${last + 1}`, commit, '--', relative],
      { onData: progressByBytes(ctx), okCodes: [] },
    ).catch(async (error) => {
      // -L past the end of the file: retry without the probe line.
      if (/has only \d+ lines?/.test(String(error.message))) {
        return git(ctx, repo, ['blame', '--porcelain', '--no-textconv', `-L${start},`, commit, '--', relative], { onData: progressByBytes(ctx) });
      }
      throw error;
    });
    const all = parseBlame(stdout.toString('utf8'));
    const lines = all.filter((l) => l.line <= last);
    const truncated = all.length > lines.length && (end_line === undefined || end_line > last);
    const commits = [...new Map(lines.map((l) => [l.commit, l])).values()].slice(0, 50);
    return ctx.result(
      { repository: repo.root, file: relative, ref: refName, lines, truncated, ...(truncated ? { next_line: last + 1 } : {}) },
      [fileLink(ctx, repo, commit, relative), ...commits.map((l) => commitLink(ctx, repo, { commit: l.commit, subject: l.summary }))],
    );
  },
});
