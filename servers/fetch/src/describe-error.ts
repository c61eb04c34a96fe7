import { FetchError } from './lib/errors.js';

/** The message a model sees for this server's own failures. */
export function describeFetchError(error: unknown): string | undefined {
  return error instanceof FetchError ? error.message : undefined;
}
