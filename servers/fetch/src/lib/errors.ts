/** Why a fetch failed, in words a model can act on. */
export type FetchErrorCode =
  | 'BAD_URL'
  | 'BLOCKED'
  | 'DNS'
  | 'ROBOTS'
  | 'TIMEOUT'
  | 'TOO_MANY_REDIRECTS'
  | 'NETWORK'
  | 'TLS'
  | 'HTTP'
  | 'UNSUPPORTED'
  | 'TOO_LARGE'
  | 'CANCELLED';

export class FetchError extends Error {
  override name = 'FetchError';
  constructor(
    readonly code: FetchErrorCode,
    message: string,
  ) {
    super(message);
  }
}
