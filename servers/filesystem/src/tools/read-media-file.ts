import { z } from 'zod';
import { defineTool } from '../context.js';
import { FsError } from '../lib/errors.js';
import { fileUri } from '../lib/file-uri.js';
import { formatSize } from '../lib/format-size.js';
import { mimeTypeOf } from '../lib/mime.js';

/** Largest media file returned: base64 grows it by a third, and the response must stay under the client's 10 MiB limit. */
export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;

export const readMediaFile = defineTool({
  name: 'read_media_file',
  title: 'Read Media File',
  description:
    'Read an image or audio file and return it as base64 image/audio content with its MIME type; other binary files come back as an embedded resource. ' +
    `At most ${formatSize(MAX_MEDIA_BYTES)}. Only works within allowed directories.`,
  input: z.object({ path: z.string() }),
  output: z.object({
    path: z.string(),
    mimeType: z.string(),
    size: z.number().int(),
    kind: z.enum(['image', 'audio', 'blob']),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  whenTooLarge: 'Read a smaller file.',
  view: 'ui://filesystem/preview',
  render: (out) => `${out.path}: ${out.kind} ${out.mimeType}, ${out.size} bytes`,
  async handler({ path }, ctx) {
    const limit = Math.min(ctx.maxReadBytes, MAX_MEDIA_BYTES);
    // Read through the descriptor that was checked (not a FIFO or a symlink swapped in since).
    const { handle, real: file } = await ctx.policy.openFile(path);
    let bytes: Buffer;
    try {
      const { size } = await handle.stat();
      if (size > limit) {
        throw new FsError('TOO_LARGE', `${path} is ${formatSize(size)}, above the ${formatSize(limit)} limit for media reads.`);
      }
      // Counted against the server's budget of reads in flight (the base64 text is a third more).
      const release = await ctx.readBudget.reserve(size);
      try {
        bytes = await handle.readFile();
      } finally {
        release();
      }
    } finally {
      await handle.close();
    }
    const mimeType = mimeTypeOf(file);
    const data = bytes.toString('base64');
    const kind = mimeType.startsWith('image/') ? 'image' : mimeType.startsWith('audio/') ? 'audio' : 'blob';
    const block =
      kind === 'blob'
        ? ctx.embed({ uri: fileUri(file), mimeType, blob: data })
        : { type: kind as 'image' | 'audio', data, mimeType };
    const result = ctx.result({ path: file, mimeType, size: bytes.length, kind }, [ctx.link(fileUri(file), { mimeType })]);
    // The media first, as the official server returns it: clients show content[0].
    return { ...result, content: [block, ...result.content] };
  },
});
