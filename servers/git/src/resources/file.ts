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
    const object = `${commit}:${file}`;
    const out = await ctx.git.run(repo, ['cat-file', '--batch'], { signal: ctx.signal, input: `${object}\n`, maxBytes: ctx.maxOutputBytes + 200 });
    const newline = out.stdout.indexOf(10);
    const header = /^[0-9a-f]+ (\w+) (\d+)$/.exec(out.stdout.subarray(0, newline).toString());
    if (!header || header[1] !== 'blob') throw resourceNotFound(uri, `No file ${file} at ${ref}.`);
    const size = Number(header[2]);
    if (size > ctx.maxOutputBytes) {
      throw invalidParams(new ArgumentError(`${file} is ${size} bytes, above the ${ctx.maxOutputBytes}-byte limit. Use git_file_at_ref with a line range.`).message);
    }
    const data = out.stdout.subarray(newline + 1, newline + 1 + size);
    if (data.subarray(0, 8000).includes(0)) return [blobContents(uri, data)];
    return [textContents(uri, data.toString('utf8'))];
  },
});
