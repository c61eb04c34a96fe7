import { z } from 'zod';
import path from 'node:path';
import { defineTool } from '../context.js';
import { identityOf, writeFileAtomic } from '../lib/atomic-write.js';
import { makeDirectories } from '../lib/make-dirs.js';
import { fileUri } from '../lib/file-uri.js';
import { ASK_AGAIN, MAX_ASKS, askUser, changedWhileAsked, describeEntry, lstatEntry, sameEntry } from './confirm-replace.js';

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
    for (let round = 1; ; round++) {
      // Asked before the lock is taken: other sessions' writes to the path go on meanwhile.
      const seen = await lstatEntry(target);
      if (seen?.isDirectory()) return ctx.error(`${requested} is a directory; give the path of a file.`);
      const answer = seen ? await askUser(ctx, `Replace the existing file ${target} (${describeEntry(seen)})?`, seen) : undefined;
      if (answer === 'no') return ctx.error(`The user declined to replace ${requested}. Nothing was written.`);
      // Writes to one path take turns, so of concurrent creates exactly one creates and the
      // others see the file it made (and ask before replacing it).
      const outcome = await ctx.locks.run(target, async () => {
        const now = await lstatEntry(target);
        if (answer === 'yes' && !sameEntry(seen, now)) return ctx.error(changedWhileAsked(requested));
        if (now?.isDirectory()) return ctx.error(`${requested} is a directory; give the path of a file.`);
        if (now && !seen) return round < MAX_ASKS ? ASK_AGAIN : ctx.error(changedWhileAsked(requested));
        await makeDirectories(path.dirname(target), ctx.policy.contains);
        // Refused (CONFLICT) if another process creates or changes the file meanwhile.
        await writeFileAtomic(target, content, { confine: ctx.policy.contains, expect: now ? identityOf(now) : 'absent' });
        if (!now) ctx.notifyResourceListChanged();
        return ctx.result({ path: target, bytes: Buffer.byteLength(content), created: !now }, [
          ctx.link(fileUri(target), { mimeType: 'text/plain' }),
        ]);
      });
      if (outcome !== ASK_AGAIN) return outcome;
    }
  },
});
