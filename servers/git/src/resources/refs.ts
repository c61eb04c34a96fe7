import { resourceNotFound, textContents } from '@mcp-reference/shared';
import { defineResourceTemplate } from '../context.js';
import { parseStatus } from '../lib/parse.js';
import { parseUri, uris } from '../lib/uris.js';
import { readRefFile } from '../lib/watch-ref.js';
import { completeRefs, completeRepo } from './complete.js';
import { refSummary, repoOr404 } from './read-helpers.js';

export const branchTemplate = defineResourceTemplate({
  uriTemplate: 'git://{repo}/branch/{+branch}',
  name: 'branch',
  title: 'Branch',
  description: 'A local branch: its head commit and the last 20 commits (JSON). Subscribe to hear when it moves. resources/list lists every branch and tag of each repository.',
  mimeType: 'application/json',
  complete: { repo: completeRepo, branch: completeRefs(['heads']) },
  // Branches then tags of each repository, repositories in id order; a page costs one for-each-ref.
  async *list(after, ctx) {
    const repos = (await ctx.repos.repositories().catch(() => [])).sort((a, b) => (a.id < b.id ? -1 : 1));
    const resume = after === undefined ? undefined : parseUri(after);
    let skipping = resume !== undefined;
    for (const repo of repos) {
      if (skipping && repo.id < resume!.repo) continue;
      const { stdout } = await ctx.git.run(repo, ['for-each-ref', '--format=%(refname)', '--', 'refs/heads', 'refs/tags'], { signal: ctx.signal });
      for (const ref of stdout.toString('utf8').split('\n')) {
        if (!ref) continue;
        const isTag = ref.startsWith('refs/tags/');
        const name = ref.slice(isTag ? 10 : 11);
        const uri = isTag ? uris.tag(repo.id, name) : uris.branch(repo.id, name);
        if (skipping) {
          if (uri === after) skipping = false;
          continue;
        }
        yield { uri, name: `${repo.id}: ${isTag ? 'tag' : 'branch'} ${name}`, mimeType: 'application/json' };
      }
      skipping = false;
    }
  },
  async read(uri, { repo: id, branch }, ctx) {
    const repo = await repoOr404(ctx, id, uri);
    if (branch.startsWith('-')) throw resourceNotFound(uri);
    const exists = await ctx.git.run(repo, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], { okCodes: [1, 128] });
    if (exists.code !== 0) throw resourceNotFound(uri, 'No such branch.');
    return refSummary(ctx, repo, uri, `refs/heads/${branch}`, { branch });
  },
});

export const tagTemplate = defineResourceTemplate({
  uriTemplate: 'git://{repo}/tag/{+tag}',
  name: 'tag',
  title: 'Tag',
  description: 'A tag: the commit it names and the 20 commits before (JSON).',
  mimeType: 'application/json',
  complete: { repo: completeRepo, tag: completeRefs(['tags']) },
  async read(uri, { repo: id, tag }, ctx) {
    const repo = await repoOr404(ctx, id, uri);
    if (tag.startsWith('-')) throw resourceNotFound(uri);
    const exists = await ctx.git.run(repo, ['show-ref', '--verify', '--quiet', `refs/tags/${tag}`], { okCodes: [1, 128] });
    if (exists.code !== 0) throw resourceNotFound(uri, 'No such tag.');
    return refSummary(ctx, repo, uri, `refs/tags/${tag}`, { tag });
  },
});

export const headTemplate = defineResourceTemplate({
  uriTemplate: 'git://{repo}/HEAD',
  name: 'head',
  title: 'HEAD',
  description: 'What HEAD points to (branch or detached commit) and the last 20 commits (JSON). Subscribe to hear about commits, checkouts and resets.',
  mimeType: 'application/json',
  complete: { repo: completeRepo },
  async read(uri, { repo: id }, ctx) {
    const repo = await repoOr404(ctx, id, uri);
    const head = await readRefFile(repo, 'HEAD');
    const symbolic = /^ref: refs\/heads\/(.+)$/.exec(head);
    return refSummary(ctx, repo, uri, 'HEAD', { branch: symbolic ? symbolic[1] : null });
  },
});

export const statusTemplate = defineResourceTemplate({
  uriTemplate: 'git://{repo}/status',
  name: 'status',
  title: 'Status',
  description: "The work tree's status (JSON, as git_status returns it). Subscribe to hear when files are changed, staged or committed.",
  mimeType: 'application/json',
  complete: { repo: completeRepo },
  async read(uri, { repo: id }, ctx) {
    const repo = await repoOr404(ctx, id, uri);
    const { stdout } = await ctx.git.run(repo, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'], { signal: ctx.signal });
    const status = parseStatus(stdout.toString('utf8'));
    if (!status) throw resourceNotFound(uri);
    return [textContents(uri, JSON.stringify({ repository: repo.root, ...status, clean: status.files.length === 0 }, null, 2), 'application/json')];
  },
});
