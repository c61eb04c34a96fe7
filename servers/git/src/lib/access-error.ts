/** A request this server refuses, with what to do instead. */
export class AccessError extends Error {
  override name = 'AccessError';
}
