import path from 'node:path';
import { watchPath, type BaseContext, type Disposer } from '@mcp-reference/shared';
import type { FsContext } from '../context.js';
import { isFsError } from '../lib/errors.js';
import { pathOfFileUri } from '../lib/file-uri.js';
import { isWithin } from '../lib/path-policy.js';

/**
 * What a subscription to a file:// URI watches: the file, or a directory's direct
 * entries. A file that does not exist yet is watched through its directory, so the
 * subscription fires when it is created. When the system runs out of watches, the
 * base's watchPath falls back to polling rather than failing.
 */
export async function watchFileUri(
  uri: string,
  changed: (path: string) => void,
  ctx: FsContext & Pick<BaseContext, 'log'>,
): Promise<Disposer | undefined> {
  const requested = pathOfFileUri(uri);
  if (requested === undefined) return undefined;
  const target = await locate(requested, ctx);
  // Told to the session that subscribed first (the watcher is shared): out of watches, polling.
  const onError = (error: Error) => {
    try {
      ctx.log('warning', `watching ${uri}: ${error.message}`);
    } catch {
      // that session is gone; the watch goes on for the others
    }
  };
  if (target.exists) return watchPath(target.real, changed, { depth: 0, onError });
  const onlyTarget = (changedPath: string) => isWithin(target.real, changedPath) && changed(changedPath);
  return watchPath(path.dirname(target.real), onlyTarget, { depth: 0, onError });
}

/** Whether the session may watch the URI: an allowed path, existing or not yet. */
export async function canWatchFileUri(uri: string, ctx: FsContext): Promise<boolean> {
  const requested = pathOfFileUri(uri);
  return requested !== undefined && (await locate(requested, ctx).then(() => true, () => false));
}

async function locate(requested: string, ctx: FsContext): Promise<{ real: string; exists: boolean }> {
  try {
    return { real: await ctx.policy.resolveReadable(requested), exists: true };
  } catch (error) {
    if (!isFsError(error, 'NOT_FOUND')) throw error;
    // Where it would be created: the parent must exist and be allowed.
    return { real: await ctx.policy.resolveWritable(requested), exists: false };
  }
}
