import { z } from 'zod';
import { stat, readFile } from 'node:fs/promises';
import { defineTool } from '../context.js';
import { FsError } from '../lib/errors.js';
import { fileUri } from '../lib/file-uri.js';
import { mimeTypeOf } from '../lib/mime.js';

export const readMediaFile = defineTool({
  name: 'read_media_file',
  title: 'Read Media File',
  description:
    'Read an image or audio file and return it as base64 image/audio content with its MIME type; other binary files come back as an embedded resource. Only works within allowed directories.',
  input: z.object({ path: z.string() }),
  output: z.object({
    path: z.string(),
    mimeType: z.string(),
    size: z.number().int(),
    kind: z.enum(['image', 'audio', 'blob']),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  render: (out) => `${out.path}: ${out.kind} ${out.mimeType}, ${out.size} bytes`,
  async handler({ path }, ctx) {
    const file = await ctx.policy.resolveFile(path);
    const { size } = await stat(file);
    if (size > ctx.maxReadBytes) {
      throw new FsError('TOO_LARGE', `${path} is ${size} bytes, above the ${ctx.maxReadBytes}-byte limit for media reads.`);
    }
    const mimeType = mimeTypeOf(file);
    const data = (await readFile(file)).toString('base64');
    const kind = mimeType.startsWith('image/') ? 'image' : mimeType.startsWith('audio/') ? 'audio' : 'blob';
    const block =
      kind === 'blob'
        ? ctx.embed({ uri: fileUri(file), mimeType, blob: data })
        : { type: kind as 'image' | 'audio', data, mimeType };
    return ctx.result({ path: file, mimeType, size, kind }, [block, ctx.link(fileUri(file), { mimeType })]);
  },
});
