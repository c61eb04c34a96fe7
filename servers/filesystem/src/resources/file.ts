import path from 'node:path';
import { blobContents, invalidParams, resourceNotFound, textContents } from '@mcp-reference/shared';
import type { FsContext } from '../context.js';
import { defineResourceTemplate } from '../context.js';
import { walkFiles } from '../lib/walk.js';
import { isWithin } from '../lib/path-policy.js';
import { FsError } from '../lib/errors.js';
import { fileUri, pathOfFileUri } from '../lib/file-uri.js';
import { completePath } from '../complete-path.js';
import { localToUriPath, pathFlavor, uriPathToLocal } from '../lib/path-flavor.js';
import { contentMimeType, isTextMime, listedMimeType } from '../lib/mime.js';
import { formatSize } from '../lib/format-size.js';

export const fileTemplate = defineResourceTemplate({
  uriTemplate: 'file:///{+path}',
  name: 'file',
  title: 'File',
  description: 'A file under the allowed directories: text or binary (base64) with its MIME type. Subscribe to hear when it changes.',
  complete: {
    // One segment at a time: "home/me/pro" -> "home/me/projects/", "home/me/profile.txt";
    // on Windows "C:/Users/me/pro" -> "C:/Users/me/projects/" (the URI's "/", any case typed).
    async path(typed, ctx) {
      const flavor = pathFlavor();
      return (await completePath(uriPathToLocal(typed, flavor), ctx, undefined, flavor)).map((candidate) => localToUriPath(candidate, flavor));
    },
  },
  // Every file of every allowed directory, walked lazily: a page costs about a page.
  // Every file but .git's, git-ignored ones included: the contract (ARCHITECTURE.md section 3) says
  // resources/list lists every file, while the listing tools take respect_gitignore. With
  // several allowed directories a name is the absolute path, so two roots' README.md do
  // not share a name.
  async *list(after, ctx) {
    // Not those inside another allowed one, so that the walk lists each file once.
    const dirs = await ctx.policy.scope().then((scope) => scope.outermost(), () => [] as string[]);
    const afterPath = after === undefined ? undefined : pathOfFileUri(after);
    let started = afterPath === undefined;
    for (const dir of dirs) {
      let resume: string | undefined;
      if (!started) {
        if (!isWithin(dir, afterPath!)) continue;
        started = true;
        resume = path.relative(dir, afterPath!).split(path.sep).join('/') || undefined;
      }
      const walker = walkFiles(dir, { after: resume, respectGitignore: false, excludes: ['.git'], signal: ctx.signal });
      for await (const entry of walker) {
        const mimeType = listedMimeType(entry.path);
        yield { uri: fileUri(entry.path), name: dirs.length > 1 ? entry.path : entry.relative, ...(mimeType ? { mimeType } : {}) };
      }
    }
  },
  async read(uri, _variables, ctx) {
    const requested = pathOfFileUri(uri);
    if (requested === undefined) throw invalidParams(`Not a file URI: ${uri}`);
    try {
      return [await readFileContents(requested, ctx)];
    } catch (error) {
      if (error instanceof FsError && error.code !== 'TOO_LARGE') throw resourceNotFound(uri, error.message);
      if (error instanceof FsError) throw invalidParams(error.message);
      throw error;
    }
  },
});

/**
 * A file as resource contents, for resources/read and for prompts that embed it: text
 * with its MIME type, or base64 for binary content, the type decided one way everywhere.
 */
export async function readFileContents(requested: string, ctx: FsContext) {
  // Read through the descriptor that was checked (not a FIFO or a symlink swapped in since).
  const { handle, real } = await ctx.policy.openFile(requested);
  let data: Buffer;
  try {
    const { size } = await handle.stat();
    if (size > ctx.maxReadBytes) {
      throw new FsError(
        'TOO_LARGE',
        `${requested} is ${formatSize(size)}, above the ${formatSize(ctx.maxReadBytes)} limit for whole reads. ` +
          'Use the read_text_file tool with head, tail or start_line/end_line.',
      );
    }
    data = await handle.readFile();
  } finally {
    await handle.close();
  }
  const uri = fileUri(real);
  const mimeType = contentMimeType(real, data);
  return isTextMime(mimeType) ? textContents(uri, data.toString('utf8'), mimeType) : blobContents(uri, data, mimeType);
}
