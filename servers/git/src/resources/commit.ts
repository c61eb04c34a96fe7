import { resourceNotFound, textContents } from '@mcp-reference/shared';
import { defineResourceTemplate } from '../context.js';
import { commitOf } from '../lib/validate.js';
import { completeRepo } from './complete.js';
import { repoOr404 } from './read-helpers.js';

export const commitTemplate = defineResourceTemplate({
  uriTemplate: 'git://{repo}/commit/{sha}',
  name: 'commit',
  title: 'Commit',
  description: 'A commit: its header, message and diff (text, cut at the output limit).',
  mimeType: 'text/plain',
  complete: {
    repo: completeRepo,
    async sha(value, ctx, { arguments: args }) {
      const repo = args.repo ? await ctx.repos.byId(args.repo) : undefined;
      if (!repo || !/^[0-9a-f]*$/.test(value)) return [];
      const { stdout } = await ctx.git.run(repo, ['log', '--format=%H', '--max-count=500'], { signal: ctx.signal, okCodes: [128] });
      return stdout.toString().split('\n').filter((sha) => sha && sha.startsWith(value));
    },
  },
  async read(uri, { repo: id, sha }, ctx) {
    const repo = await repoOr404(ctx, id, uri);
    if (!/^[0-9a-f]{4,64}$/.test(sha)) throw resourceNotFound(uri);
    const commit = await commitOf(repo, sha, ctx.signal).catch(() => undefined);
    if (!commit) throw resourceNotFound(uri, 'No such commit.');
    const { stdout, truncated } = await ctx.git.run(
      repo,
      ['show', '--no-ext-diff', '--no-textconv', '--no-color', '--first-parent', '--format=fuller', '--end-of-options', commit],
      { signal: ctx.signal, maxBytes: ctx.maxOutputBytes },
    );
    return [textContents(uri, stdout.toString('utf8') + (truncated ? '\n[diff truncated: use git_show or git_diff with a path]' : ''))];
  },
});
