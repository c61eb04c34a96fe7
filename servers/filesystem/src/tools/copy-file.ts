import { z } from 'zod';
import { lstat } from 'node:fs/promises';
import { defineTool } from '../context.js';
import { resolveEntry } from '../lib/entry-path.js';
import { copyDirectory, copyFile as copy, isSameEntry, renameTarget } from '../lib/copy-move.js';
import { fileUri, pathOfFileUri } from '../lib/file-uri.js';
import { pathFlavor } from '../lib/path-flavor.js';
import { FsError } from '../lib/errors.js';
import { displayName } from '../lib/display-name.js';
import { ASK_AGAIN, MAX_ASKS, askUser, changedWhileAsked, describeEntry, lstatEntry, sameEntry } from './confirm-replace.js';

export const copyFile = defineTool({
  name: 'copy_file',
  title: 'Copy File',
  description:
    'Copy a file (atomically) or a directory (recursively; symlinks are copied as links). If the destination exists the copy fails, unless the client can ask ' +
    'the user and they agree to replace a file. Both paths must be within allowed directories.',
  input: z.object({ source: z.string(), destination: z.string() }),
  output: z.object({
    source: z.string(),
    destination: z.string(),
    type: z.enum(['file', 'directory']),
    replaced: z.boolean(),
  }),
  annotations: { destructiveHint: true, openWorldHint: false },
  render: (out) => `Copied ${out.type} ${displayName(out.source)} to ${displayName(out.destination)}${out.replaced ? ' (replaced the existing file)' : ''}`,
  async handler({ source, destination }, ctx) {
    const { entry, real } = await resolveEntry(ctx.policy, source);
    const target = renameTarget(entry, await ctx.policy.resolveWritable(destination), pathOfFileUri(destination) ?? destination, pathFlavor());
    // Refused before anything is asked: "Replace new.txt with a copy of new.txt?" would make no sense.
    if (target === entry || (await isSameEntry(entry, target))) {
      throw new FsError('INVALID_ARGUMENT', `${destination} is ${entry} itself${target === entry ? '' : ' (this filesystem does not tell names apart by case)'}. Give the copy another name.`);
    }
    const exists = () => ctx.error(`${destination} already exists. Choose another destination, or remove it first.`);
    for (let round = 1; ; round++) {
      // Asked before the lock is taken: other sessions' writes to the path go on meanwhile.
      const seen = await lstatEntry(target);
      if (seen?.isDirectory()) return exists();
      const answer = seen ? await askUser(ctx, `Replace ${target} (${describeEntry(seen)}) with a copy of ${entry}?`, seen) : undefined;
      if (answer === 'no' || answer === 'unavailable') return exists();
      const outcome = await ctx.locks.run(target, async () => {
        const now = await lstatEntry(target);
        if (seen && !sameEntry(seen, now)) return ctx.error(changedWhileAsked(destination));
        if (now && !seen) return round < MAX_ASKS ? ASK_AGAIN : exists();
        const type = (await lstat(entry)).isDirectory() ? 'directory' : 'file';
        const confine = ctx.policy.contains;
        // A file is copied from what the policy resolved (a symlink's checked target), opened and checked again.
        if (type === 'directory') await copyDirectory(entry, target, { confine });
        else await copy(real, target, { overwrite: Boolean(now), confine });
        ctx.notifyResourceListChanged();
        return ctx.result({ source: entry, destination: target, type, replaced: Boolean(now) }, type === 'file' ? [ctx.link(fileUri(target))] : []);
      });
      if (outcome !== ASK_AGAIN) return outcome;
    }
  },
});
