/** A failure the caller can act on (a refused statement, a SQL error, a time limit): its message says what to do. */
export class SqlError extends Error {
  override name = 'SqlError';
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}
