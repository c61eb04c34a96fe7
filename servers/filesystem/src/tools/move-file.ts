import { z } from 'zod';
import { lstat } from 'node:fs/promises';
import { defineTool } from '../context.js';
import { resolveEntry } from '../lib/entry-path.js';
import { isSameEntry, moveFile as move, renameTarget } from '../lib/copy-move.js';
import { fileUri, pathOfFileUri } from '../lib/file-uri.js';
import { pathFlavor } from '../lib/path-flavor.js';
import { displayName } from '../lib/display-name.js';

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
    return ctx.locks.run(target, async () => {
      // "new.txt" -> "NEW.txt" where names ignore case is a rename in place, not a replacement.
      const existing = (await isSameEntry(entry, target)) ? undefined : await lstat(target).catch(() => undefined);
      // The older server refused to move onto an existing file; without a way to ask, so do we.
      if (existing && !(await ctx.confirm(`Replace ${displayName(target)} with ${displayName(entry)}?`, { whenUnavailable: false }))) {
        return ctx.error(`${destination} already exists. Choose another destination, or remove it first.`);
      }
      await move(entry, target, { overwrite: Boolean(existing), confine: ctx.policy.contains });
      ctx.notifyResourceListChanged();
      const isFile = (await lstat(target)).isFile();
      return ctx.result({ source: entry, destination: target, replaced: Boolean(existing) }, isFile ? [ctx.link(fileUri(target))] : []);
    });
  },
});
