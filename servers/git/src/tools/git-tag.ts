import { z } from 'zod';
import { defineTool } from '../context.js';
import { assertNotOption, checkRefName, commitOf } from '../lib/validate.js';
import { uris } from '../lib/uris.js';
import { withMessageFile } from '../lib/message-file.js';
import { repoPath, repository, git, REFS_PAGE, refsAfter, refsCursor } from './common.js';

const tagSchema = z.object({
  name: z.string(),
  commit: z.string().describe('The commit the tag names'),
  annotated: z.boolean(),
  subject: z.string().describe('The tag message (annotated) or the commit subject'),
});

export const gitTag = defineTool({
  name: 'git_tag',
  title: 'List Tags',
  description: `List tags, newest version first, optionally only those matching a glob pattern or containing a commit. More than ${REFS_PAGE.toLocaleString('en')} come in pages: pass nextCursor back as cursor.`,
  input: z.object({
    repo_path: repoPath,
    pattern: z.string().optional().describe('Glob on the tag name, e.g. "v1.*"'),
    contains: z.string().optional().describe('Only tags that contain this commit'),
    cursor: refsCursor,
  }),
  output: z.object({ repository, tags: z.array(tagSchema), nextCursor: z.string().optional() }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) =>
    (out.tags.map((t) => `${t.name} ${t.commit.slice(0, 12)} ${t.subject}`).join('\n') || 'No tags.') +
    (out.nextCursor ? `\n(more tags: call again with cursor ${out.nextCursor})` : ''),
  async handler({ repo_path, pattern, contains, cursor }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    const filters = contains === undefined ? [] : [`--contains=${await commitOf(repo, contains, ctx.signal)}`];
    const glob = pattern === undefined ? 'refs/tags' : `refs/tags/${assertNotOption(pattern, 'pattern').replace(/^\/+/, '')}`;
    const { stdout } = await git(ctx, repo, [
      'for-each-ref',
      '--sort=-version:refname',
      '--format=%(refname:strip=2)%1f%(objecttype)%1f%(*objectname)%1f%(objectname)%1f%(contents:subject)',
      ...filters,
      '--',
      glob,
    ]);
    const all = stdout
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((row) => {
        const [name, type, peeled, object, subject] = row.split('\x1f');
        return { name, commit: peeled || object, annotated: type === 'tag', subject, ref: `refs/tags/${name}` };
      });
    const page = await ctx.page((after) => (after === undefined ? all : refsAfter(all, after, 'version')), { cursor, keyOf: (t) => t.ref, limit: REFS_PAGE });
    const tags = page.items.map(({ ref: _ref, ...tag }) => tag);
    return ctx.result(
      { repository: repo.root, tags, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) },
      tags.slice(0, 100).map((t) => ctx.link(uris.tag(repo.id, t.name), { name: t.name, title: `tag ${t.name}`, mimeType: 'text/plain' })),
    );
  },
});

export const gitCreateTag = defineTool({
  name: 'git_create_tag',
  title: 'Create Tag',
  description: 'Create a tag at a revision (default HEAD): annotated when a message is given, lightweight otherwise. Never moves an existing tag, never signs.',
  input: z.object({
    repo_path: repoPath,
    tag_name: z.string(),
    revision: z.string().optional().describe('Commit, branch or tag to tag (default HEAD)'),
    message: z.string().optional().describe('Makes an annotated tag with this message'),
  }),
  output: z.object({ repository, tag: z.string(), commit: z.string(), annotated: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  render: (out) => `Created tag '${out.tag}' at ${out.commit}`,
  async handler({ repo_path, tag_name, revision, message }, ctx) {
    const repo = await ctx.repos.resolve(repo_path);
    await checkRefName(repo, tag_name, 'tag');
    const commit = await commitOf(repo, revision ?? 'HEAD', ctx.signal);
    return ctx.git.exclusive(repo, async () => {
      const annotated = message !== undefined;
      const tag = (messageArgs: string[]) => git(ctx, repo, ['tag', '--no-sign', ...messageArgs, '--end-of-options', tag_name, commit]);
      // The message goes through a file (-F): it is never an argument, so never an option.
      await (message === undefined ? tag([]) : withMessageFile(message, (file) => tag(['--cleanup=verbatim', '-F', file])));
      return ctx.result({ repository: repo.root, tag: tag_name, commit, annotated }, [
        ctx.link(uris.tag(repo.id, tag_name), { name: tag_name, mimeType: 'text/plain' }),
      ]);
    });
  },
});
