import { promises as fsp } from 'node:fs';
import { FsError, errnoCode } from './errors.js';

/**
 * rename(2) that waits out a file held by another program.
 *
 * On Windows a rename fails for a moment while an antivirus scanner, the search indexer
 * or a sync client has the file open (EPERM, EBUSY, EACCES); a few tries with a short
 * backoff get through. What is still held after that is in use for real: the error says
 * so, instead of blaming permissions. Elsewhere these codes mean what they say and are
 * not retried.
 */
export interface RenameRetry {
  /** Error codes that are retried; by default EPERM, EBUSY and EACCES on Windows, none elsewhere. */
  transient?: readonly string[];
  /** Delays before each retry, in ms. */
  delays?: readonly number[];
  /** Called before each retry (attempt 1 is the first retry). */
  onRetry?: (attempt: number, code: string) => void | Promise<void>;
}

export const TRANSIENT_RENAME_CODES: Readonly<Record<string, readonly string[]>> = { win32: ['EPERM', 'EBUSY', 'EACCES'] };
const DEFAULT_DELAYS = [20, 50, 100, 200, 400];

export function transientRenameCodes(platform: NodeJS.Platform = process.platform): readonly string[] {
  return TRANSIENT_RENAME_CODES[platform] ?? [];
}

/**
 * Renames `from` to `to`, retrying transient failures. After the last try a transient
 * failure becomes FsError ACCESS_DENIED naming `label` as in use by another program;
 * anything else is rethrown as it came.
 */
export async function renameRetrying(from: string, to: string, label: string, options: RenameRetry = {}): Promise<void> {
  const { transient = transientRenameCodes(), delays = DEFAULT_DELAYS, onRetry } = options;
  for (let attempt = 0; ; attempt++) {
    try {
      await fsp.rename(from, to);
      return;
    } catch (error) {
      const code = errnoCode(error);
      if (code === undefined || !transient.includes(code)) throw error;
      if (attempt >= delays.length) throw inUse(label, error);
      await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
      await onRetry?.(attempt + 1, code);
    }
  }
}

export function inUse(label: string, cause?: unknown): FsError {
  return new FsError(
    'ACCESS_DENIED',
    `${label} is in use by another program (an editor, antivirus scanner, indexer or sync client has it open), ` +
      'so it could not be replaced or renamed; nothing was changed. Close that program or wait a moment, then try again.',
    { cause },
  );
}
