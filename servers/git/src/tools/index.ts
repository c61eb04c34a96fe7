import { gitStatus } from './git-status.js';
import { gitDiffUnstaged, gitDiffStaged, gitDiff } from './git-diff.js';
import { gitCommit } from './git-commit.js';
import { gitAdd } from './git-add.js';
import { gitReset } from './git-reset.js';
import { gitLog } from './git-log.js';
import { gitCreateBranch } from './git-create-branch.js';
import { gitCheckout } from './git-checkout.js';
import { gitShow } from './git-show.js';
import { gitBranch } from './git-branch.js';
import { gitBlame } from './git-blame.js';
import { gitGrep } from './git-grep.js';
import { gitTag, gitCreateTag } from './git-tag.js';
import { gitFileAtRef } from './git-file-at-ref.js';
import { gitStash } from './git-stash.js';
import { gitWorktreeList } from './git-worktree-list.js';
import { gitFetch } from './git-fetch.js';
import { gitPull } from './git-pull.js';
import { gitPush } from './git-push.js';
import { gitLogPage } from './git-log-page.js';
import { gitCommitDiff } from './git-commit-diff.js';

import { acceptNull } from './common.js';

/** Tools that only read: all that --read-only leaves. */
export const readTools = [
  gitStatus,
  gitDiffUnstaged,
  gitDiffStaged,
  gitDiff,
  gitLog,
  gitShow,
  gitBranch,
  gitBlame,
  gitGrep,
  gitTag,
  gitFileAtRef,
  gitWorktreeList,
  gitLogPage,
  gitCommitDiff,
].map(acceptNull);

/** Tools that change a repository or a remote: removed by --read-only. */
export const writeTools = [gitCommit, gitAdd, gitReset, gitCreateBranch, gitCheckout, gitCreateTag, gitStash, gitFetch, gitPull, gitPush].map(acceptNull);
