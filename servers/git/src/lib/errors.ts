import { GitError } from './git-runner.js';
import { AccessError } from './repo.js';
import { ArgumentError } from './validate.js';

/** The message of an error the client can act on (refusals, git's own complaints). */
export function describeGitError(error: unknown): string | undefined {
  if (error instanceof AccessError || error instanceof ArgumentError || error instanceof GitError) return error.message;
  return undefined;
}
