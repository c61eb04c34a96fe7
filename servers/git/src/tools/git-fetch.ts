import { z } from 'zod';
import { defineTool } from '../context.js';
import { checkRemote } from '../lib/remote.js';
import { repoPath, repository, git } from './common.js';

export const remoteName = z.string().default('origin').describe('A remote already configured in the repository (default origin)');

/** Ref updates listed in git_fetch's answer; the rest are counted. */
export const MAX_LISTED_UPDATES = 1_000;

const refUpdate = z.object({ ref: z.string(), old: z.string().nullable(), new: z.string().nullable() });

async function remoteRefs(run: (args: string[]) => Promise<{ stdout: Buffer }>, remote: string): Promise<Map<string, string>> {
  const { stdout } = await run(['for-each-ref', '--format=%(refname) %(objectname)', '--', `refs/remotes/${remote}`, 'refs/tags']);
  return new Map(stdout.toString('utf8').split('\n').filter(Boolean).map((row) => row.split(' ') as [string, string]));
}

export const gitFetch = defineTool({
  name: 'git_fetch',
  title: 'Fetch',
  description:
    'Download commits, branches and tags from a remote already configured in the repository (https, ssh or git; local paths only inside the allowed repositories). ' +
    'Changes no local branch and no work-tree file.',
  input: z.object({ repo_path: repoPath, remote: remoteName, prune: z.boolean().default(false).describe('Also delete remote-tracking branches gone from the remote') }),
  output: z.object({
    repository,
    remote: z.string(),
    url: z.string(),
    updated: z.array(refUpdate).describe(`The refs that changed, in name order: the first ${MAX_LISTED_UPDATES.toLocaleString('en')}`),
    updated_count: z.number().int().describe('How many refs changed in all'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  render: (out) =>
    out.updated.length
      ? out.updated.map((u) => `${u.ref}: ${u.old?.slice(0, 10) ?? '(new)'} -> ${u.new?.slice(0, 10) ?? '(deleted)'}`).join('\n') +
        (out.updated_count > out.updated.length ? `\n... and ${(out.updated_count - out.updated.length).toLocaleString('en')} more refs` : '')
      : `Already up to date with ${out.remote}.`,
  async handler({ repo_path, remote, prune }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const checked = await checkRemote(ctx.git, repo, remote, await ctx.repos.allowed(), 'fetch', ctx.signal);
    return ctx.git.exclusive(repo, async () => {
      const run = (args: string[]) => git(ctx, repo, args);
      const before = await remoteRefs(run, remote);
      await git(ctx, repo, ['fetch', checked.pack, '--no-recurse-submodules', '--no-write-fetch-head', ...(prune ? ['--prune'] : []), '--end-of-options', remote], { config: checked.config });
      const after = await remoteRefs(run, remote);
      const changed = [...new Set([...before.keys(), ...after.keys()])].filter((ref) => before.get(ref) !== after.get(ref)).sort();
      // Listed whole, each changed ref costs about 126 bytes of answer: a fetch that brings
      // 30,000 tags answered 3.8 MB, and one of some 65,000 refs would be over what a
      // response may carry (8 MB): an error, after the fetch was done.
      const updated = changed.slice(0, MAX_LISTED_UPDATES).map((ref) => ({ ref, old: before.get(ref) ?? null, new: after.get(ref) ?? null }));
      return ctx.result({ repository: repo.root, remote, url: checked.url, updated, updated_count: changed.length });
    });
  },
});
