import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { blobContents, invalidParams, resourceNotFound, textContents } from '@mcp-reference/shared';
import { defineResourceTemplate } from '../context.js';
import { walkFiles } from '../lib/walk.js';
import { outermost } from '../lib/access.js';
import { isWithin } from '../lib/path-policy.js';
import { FsError } from '../lib/errors.js';
import { fileUri, pathOfFileUri } from '../lib/file-uri.js';
import { completePath } from '../complete-path.js';
import { mimeTypeOf, isTextMime, looksBinary } from '../lib/mime.js';

export const fileTemplate = defineResourceTemplate({
  uriTemplate: 'file:///{+path}',
  name: 'file',
  title: 'File',
  description: 'A file under the allowed directories: text or binary (base64) with its MIME type. Subscribe to hear when it changes.',
  complete: {
    // One segment at a time: "home/me/pro" -> "home/me/projects/", "home/me/profile.txt".
    async path(typed, ctx) {
      return (await completePath(`/${typed}`, ctx)).map((candidate) => candidate.slice(1));
    },
  },
  // Every file of every allowed directory, walked lazily: a page costs about a page.
  async *list(after, ctx) {
    const dirs = outermost(await ctx.policy.allowed().catch(() => [] as string[]));
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
        yield { uri: fileUri(entry.path), name: entry.relative, mimeType: mimeTypeOf(entry.path) };
      }
    }
  },
  async read(uri, _variables, ctx) {
    const requested = pathOfFileUri(uri);
    if (requested === undefined) throw invalidParams(`Not a file URI: ${uri}`);
    let real: string;
    try {
      real = await ctx.policy.resolveFile(requested);
    } catch (error) {
      if (error instanceof FsError) throw resourceNotFound(uri, error.message);
      throw error;
    }
    const info = await stat(real);
    if (info.size > ctx.maxReadBytes) {
      throw invalidParams(
        `${requested} is ${info.size} bytes, above the ${ctx.maxReadBytes}-byte limit for whole reads. Use the read_text_file tool with head, tail or start_line/end_line.`,
      );
    }
    const mimeType = mimeTypeOf(real);
    const data = await readFile(real);
    if (isTextMime(mimeType) || (!mimeType.startsWith('image/') && !mimeType.startsWith('audio/') && !looksBinary(data))) {
      return [textContents(uri, data.toString('utf8'), mimeType === 'application/octet-stream' ? 'text/plain' : mimeType)];
    }
    return [blobContents(uri, data, mimeType)];
  },
});
