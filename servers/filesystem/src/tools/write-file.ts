import { z } from 'zod';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { defineTool } from '../context.js';
import { identityOf, writeFileAtomic } from '../lib/atomic-write.js';
import { makeDirectories } from '../lib/make-dirs.js';
import { fileUri } from '../lib/file-uri.js';

export const writeFile = defineTool({
  name: 'write_file',
  title: 'Write File',
  description:
    'Create a file or replace an existing one with new content (UTF-8). The write is atomic: readers see the old or the new file, never half of it. ' +
    'Missing parent directories are created. Replacing a file asks the user first when the client supports it. Only works within allowed directories.',
  input: z.object({ path: z.string(), content: z.string() }),
  output: z.object({
    path: z.string(),
    bytes: z.number().int(),
    created: z.boolean().describe('false when an existing file was replaced'),
  }),
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  render: (out) => `${out.created ? 'Created' : 'Replaced'} ${out.path} (${out.bytes} bytes)`,
  async handler({ path: requested, content }, ctx) {
    const target = await ctx.policy.resolveWritable(requested);
    // Writes to one path take turns, so of concurrent creates exactly one creates and the
    // others see the file it made (and ask before replacing it).
    return ctx.locks.run(target, async () => {
      const existing = await lstat(target, { bigint: true }).catch(() => undefined);
      if (existing?.isDirectory()) return ctx.error(`${requested} is a directory; give the path of a file.`);
      if (existing && !(await ctx.confirm(`Replace the existing file ${target}?`))) {
        return ctx.error(`The user declined to replace ${requested}. Nothing was written.`);
      }
      await makeDirectories(path.dirname(target), ctx.policy.contains);
      // Refused (CONFLICT) if another process creates or changes the file meanwhile.
      await writeFileAtomic(target, content, { confine: ctx.policy.contains, expect: existing ? identityOf(existing) : 'absent' });
      if (!existing) ctx.notifyResourceListChanged();
      return ctx.result({ path: target, bytes: Buffer.byteLength(content), created: !existing }, [
        ctx.link(fileUri(target), { mimeType: 'text/plain' }),
      ]);
    });
  },
});
