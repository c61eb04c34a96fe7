import { z } from 'zod';
import { lstat } from 'node:fs/promises';
import { defineTool } from '../context.js';
import { resolveEntry } from '../lib/entry-path.js';
import { isSameEntry, moveFile as move, renameTarget } from '../lib/copy-move.js';
import { fileUri, pathOfFileUri } from '../lib/file-uri.js';
import { pathFlavor } from '../lib/path-flavor.js';
import { displayName } from '../lib/display-name.js';
import { ASK_AGAIN, MAX_ASKS, askUser, changedWhileAsked, describeEntry, lstatEntry, sameEntry } from './confirm-replace.js';

export const moveFile = defineTool({
  name: 'move_file',
  title: 'Move File',
  description:
    'Move or rename a file or directory. If the destination exists the move fails, unless the client can ask the user and they agree to replace it. ' +
    'Both paths must be within allowed directories.',
  input: z.object({ source: z.string(), destination: z.string() }),
  output: z.object({ source: z.string(), destination: z.string(), replaced: z.boolean() }),
  annotations: { destructiveHint: true, openWorldHint: false },
  render: (out) => `Moved ${displayName(out.source)} to ${displayName(out.destination)}${out.replaced ? ' (replaced the existing one)' : ''}`,
  async handler({ source, destination }, ctx) {
    // The entry itself is moved, so a symlink that loops can be moved (out of the way) too.
    const { entry } = await resolveEntry(ctx.policy, source, { linkItself: true });
    const target = renameTarget(entry, await ctx.policy.resolveWritable(destination), pathOfFileUri(destination) ?? destination, pathFlavor());
    const exists = () => ctx.error(`${destination} already exists. Choose another destination, or remove it first.`);
    // "new.txt" -> "NEW.txt" where names ignore case is a rename in place, not a replacement.
    const occupant = async () => ((await isSameEntry(entry, target)) ? undefined : lstatEntry(target));
    for (let round = 1; ; round++) {
      // Asked before the lock is taken: other sessions' writes to the path go on meanwhile.
      const seen = await occupant();
      // The older server refused to move onto an existing file; without a way to ask, so do we.
      const answer = seen ? await askUser(ctx, `Replace ${displayName(target)} (${describeEntry(seen)}) with ${displayName(entry)}?`, seen) : undefined;
      if (answer === 'no' || answer === 'unavailable') return exists();
      const outcome = await ctx.locks.run(target, async () => {
        const now = await occupant();
        if (seen && !sameEntry(seen, now)) return ctx.error(changedWhileAsked(destination));
        if (now && !seen) return round < MAX_ASKS ? ASK_AGAIN : exists();
        await move(entry, target, { overwrite: Boolean(now), confine: ctx.policy.contains });
        ctx.notifyResourceListChanged();
        const isFile = (await lstat(target)).isFile();
        return ctx.result({ source: entry, destination: target, replaced: Boolean(now) }, isFile ? [ctx.link(fileUri(target))] : []);
      });
      if (outcome !== ASK_AGAIN) return outcome;
    }
  },
});
