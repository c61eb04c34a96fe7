import { blobContents, invalidParams, resourceNotFound, textContents } from '@mcp-reference/shared';
import { defineResourceTemplate } from '../context.js';
import { commitOf, treePath, ArgumentError } from '../lib/validate.js';
import { completeRefs, completeRepo, completeTreePath } from './complete.js';
import { repoOr404 } from './read-helpers.js';

export const fileTemplate = defineResourceTemplate({
  uriTemplate: 'git://{repo}/file/{ref}/{+path}',
  name: 'file',
  title: 'File at a ref',
  description: 'A file as it is at a branch, tag or commit ({ref} is percent-encoded, so "feature%2Fx" for feature/x). Binary files come base64-encoded.',
  complete: { repo: completeRepo, ref: completeRefs(['heads', 'tags']), path: completeTreePath },
  async read(uri, { repo: id, ref, path }, ctx) {
    const repo = await repoOr404(ctx, id, uri);
    let file: string;
    try {
      file = treePath(path);
    } catch (error) {
      throw invalidParams((error as Error).message);
    }
    const commit = await commitOf(repo, ref, ctx.signal).catch(() => undefined);
    if (!commit) throw resourceNotFound(uri, `No ref "${ref}".`);
    const found = await ctx.git.catFile(repo, `${commit}:${file}`, ctx.maxOutputBytes, ctx.signal);
    if (found.type !== 'blob') throw resourceNotFound(uri, `No file ${file} at ${ref}.`);
    if (found.data === undefined) {
      throw invalidParams(new ArgumentError(`${file} is ${found.size} bytes, above the ${ctx.maxOutputBytes}-byte limit. Use git_file_at_ref with a line range.`).message);
    }
    const data = found.data;
    if (data.subarray(0, 8000).includes(0)) return [blobContents(uri, data)];
    return [textContents(uri, data.toString('utf8'))];
  },
});
