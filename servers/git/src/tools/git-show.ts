import { z } from 'zod';
import { defineTool } from '../context.js';
import { LOG_FORMAT, parseLog } from '../lib/parse.js';
import { commitOf } from '../lib/validate.js';
import { repoPath, repository, commitSchema, diffFileSchema, git, commitLink, diffFileLinks, DIFF_SAFETY, runDiff, startByte, diffCutNote } from './common.js';

export const gitShow = defineTool({
  name: 'git_show',
  title: 'Show Commit',
  description:
    'Show a commit (by hash, branch, tag or expression like HEAD~2): its metadata, full message and diff (the message and the diff are each cut at ' +
    'the output limit; read on in a cut diff with start_byte = next_byte).',
  input: z.object({ repo_path: repoPath, revision: z.string().describe('The revision (commit hash, branch or tag name) to show'), start_byte: startByte }),
  output: z.object({
    repository,
    commit: commitSchema,
    message: z.string().describe('The full commit message, unless message_truncated'),
    message_truncated: z.boolean().describe('The message was longer than the output limit (--max-output-bytes) and was cut'),
    diff: z.string().describe('The diff against the first parent, or its piece from start_byte; cut at the output limit, at a line end'),
    truncated: z.boolean().describe('True when the diff goes on past this piece: read on with start_byte = next_byte'),
    next_byte: z.number().int().optional().describe('Set when the diff was cut: pass it as start_byte to read on, byte for byte'),
    files: z.array(diffFileSchema).describe('The files whose headers are in this piece of the diff'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  view: 'ui://git/diff',
  render: (out) =>
    `Commit: ${out.commit.commit}\nAuthor: ${out.commit.author} <${out.commit.author_email}>\nDate: ${out.commit.date}\n\n${out.message}` +
    (out.message_truncated ? '\n[message truncated]' : '') +
    `\n\n${out.diff}` +
    diffCutNote(out, false),
  async handler({ repo_path, revision, start_byte }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const sha = await commitOf(repo, revision, ctx.signal);
    const [meta, body, patch] = await Promise.all([
      git(ctx, repo, ['log', '-1', LOG_FORMAT, '--end-of-options', sha]),
      git(ctx, repo, ['log', '-1', '--format=%B', '--end-of-options', sha], { maxBytes: ctx.maxOutputBytes }),
      runDiff(ctx, repo, ['show', ...DIFF_SAFETY, '--format=', '--first-parent', '--end-of-options', sha], start_byte, true),
    ]);
    const [commit] = parseLog(meta.stdout.toString('utf8'));
    return ctx.result(
      { repository: repo.root, commit, message: body.stdout.toString('utf8').trim(), message_truncated: body.truncated, ...patch },
      [commitLink(ctx, repo, commit), ...diffFileLinks(ctx, repo, sha, patch.files, 'new')],
    );
  },
});
