import { z } from 'zod';
import { defineTool } from '../context.js';
import { LOG_FORMAT, parseLog, parseDiff } from '../lib/parse.js';
import { commitOf } from '../lib/validate.js';
import { repoPath, repository, commitSchema, diffFileSchema, git, commitLink, diffFileLinks, DIFF_SAFETY } from './common.js';

export const gitShow = defineTool({
  name: 'git_show',
  title: 'Show Commit',
  description: 'Show a commit (by hash, branch, tag or expression like HEAD~2): its metadata, full message and diff (the message and the diff are each cut at the output limit).',
  input: z.object({ repo_path: repoPath, revision: z.string().describe('The revision (commit hash, branch or tag name) to show') }),
  output: z.object({
    repository,
    commit: commitSchema,
    message: z.string().describe('The full commit message, unless message_truncated'),
    message_truncated: z.boolean().describe('The message was longer than the output limit (--max-output-bytes) and was cut'),
    diff: z.string(),
    truncated: z.boolean(),
    files: z.array(diffFileSchema),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  view: 'ui://git/diff',
  render: (out) =>
    `Commit: ${out.commit.commit}\nAuthor: ${out.commit.author} <${out.commit.author_email}>\nDate: ${out.commit.date}\n\n${out.message}` +
    (out.message_truncated ? '\n[message truncated]' : '') +
    `\n\n${out.diff}` +
    (out.truncated ? '\n[diff truncated]' : ''),
  async handler({ repo_path, revision }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const sha = await commitOf(repo, revision, ctx.signal);
    const [meta, body, patch] = await Promise.all([
      git(ctx, repo, ['log', '-1', LOG_FORMAT, '--end-of-options', sha]),
      git(ctx, repo, ['log', '-1', '--format=%B', '--end-of-options', sha], { maxBytes: ctx.maxOutputBytes }),
      git(ctx, repo, ['show', ...DIFF_SAFETY, '--format=', '--first-parent', '--end-of-options', sha], { maxBytes: ctx.maxOutputBytes }),
    ]);
    const [commit] = parseLog(meta.stdout.toString('utf8'));
    const diff = patch.stdout.toString('utf8').replace(/^\n+/, '');
    const files = parseDiff(diff);
    return ctx.result(
      { repository: repo.root, commit, message: body.stdout.toString('utf8').trim(), message_truncated: body.truncated, diff, truncated: patch.truncated, files },
      [commitLink(ctx, repo, commit), ...diffFileLinks(ctx, repo, sha, files, 'new')],
    );
  },
});
