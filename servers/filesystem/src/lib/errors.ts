/**
 * The one error type of the filesystem domain. `code` is stable and machine-readable;
 * `message` is written for the model that made the call: it says what was wrong and
 * what to do instead, because that text is what ends up in the tool result.
 */
export type FsErrorCode =
  | 'ACCESS_DENIED'
  | 'NOT_FOUND'
  | 'NOT_A_FILE'
  | 'NOT_A_DIRECTORY'
  | 'TOO_LARGE'
  | 'EXISTS'
  | 'INVALID_PATH'
  | 'INVALID_ARGUMENT'
  | 'INVALID_PATTERN'
  | 'OUT_OF_RANGE'
  | 'NO_ALLOWED_DIRECTORIES'
  | 'EDIT_NO_MATCH'
  | 'EDIT_AMBIGUOUS'
  /** The file changed (or appeared) between being read and being written: nothing was written. */
  | 'CONFLICT'
  | 'IO_ERROR';

export class FsError extends Error {
  override readonly name = 'FsError';
  readonly code: FsErrorCode;

  constructor(code: FsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isFsError(error: unknown, code?: FsErrorCode): error is FsError {
  return error instanceof FsError && (code === undefined || error.code === code);
}

/** The `code` of a Node system error (ENOENT, EACCES...), or undefined. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns a Node system error about `path` into an FsError with an actionable message.
 * FsErrors and non-system errors pass through unchanged, so callers can wrap whole
 * operations without double-wrapping.
 */
export function toFsError(error: unknown, path: string): unknown {
  if (error instanceof FsError) return error;
  switch (errnoCode(error)) {
    case 'ENOENT':
      return new FsError('NOT_FOUND', `No such file or directory: ${path}. List the parent directory to see what exists.`, { cause: error });
    case 'ENOTDIR':
      return new FsError('NOT_A_DIRECTORY', `A component of ${path} is a file, not a directory.`, { cause: error });
    case 'EISDIR':
      return new FsError('NOT_A_FILE', `${path} is a directory, not a file. List it instead of reading or writing it.`, { cause: error });
    case 'EEXIST':
    case 'ENOTEMPTY':
      return new FsError('EXISTS', `${path} already exists. Choose another name, or remove it first.`, { cause: error });
    case 'EACCES':
    case 'EPERM':
      return new FsError('ACCESS_DENIED', `The operating system denied access to ${path} (permissions).`, { cause: error });
    case 'ELOOP':
      return new FsError('INVALID_PATH', `${path} is a symbolic link loop.`, { cause: error });
    case 'ENAMETOOLONG':
      return new FsError('INVALID_PATH', `${path} is too long for this filesystem.`, { cause: error });
    case undefined:
      return error;
    default:
      return new FsError('IO_ERROR', `${(error as Error).message}`, { cause: error });
  }
}
