import { definitionsFor } from '@mcp-reference/shared';
import type { PathPolicy } from './lib/path-policy.js';
import type { RecentEdits } from './lib/recent-edits.js';
import type { PathLocks } from './lib/path-locks.js';
import type { ByteBudget } from './lib/byte-budget.js';
import type { ListingSnapshots } from './lib/listing-snapshots.js';
import type { GlobSettings } from './lib/case-sensitivity.js';

/** What every handler of this server sees besides the base context. */
export interface FsContext {
  /** Confines every path to the session's allowed directories. */
  policy: PathPolicy;
  /** Largest file read whole. */
  maxReadBytes: number;
  /** Edits made through this server (all sessions), for the review prompt. */
  recentEdits: RecentEdits;
  /** Serializes writes to one path across the server's sessions (edit_file, write_file...). */
  locks: PathLocks;
  /** Bytes of file content the server's reads hold at once (all sessions): reads wait beyond it. */
  readBudget: ByteBudget;
  /** Listings kept between pages (list_directory_with_sizes), per session, bounded. */
  listings: ListingSnapshots<unknown>;
  /** How globs match under each allowed directory (case, separators), probed once per directory. */
  globs: GlobSettings;
}

export const { defineTool, defineResource, defineResourceTemplate, definePrompt } = definitionsFor<FsContext>();
