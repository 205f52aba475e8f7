import 'server-only';

/**
 * Why an offline input could not be read: unreadable path, not an archive, a hostile entry (`../`, links), a limit
 * exceeded (bomb, huge line). The message is one line, meant to be printed as-is to a user.
 */
export class OfflineInputError extends Error {
  override readonly name = 'OfflineInputError';

  /**
   * `syntax`: one file does not parse (skipped with a warning inside a must-gather); `limit`: a cap tripped;
   * `unsafe`: a hostile entry; `format`: not a must-gather, archive or object file; `unreadable`: I/O failure.
   */
  readonly code: OfflineErrorCode;

  constructor(message: string, code: OfflineErrorCode = 'format', options?: { cause?: unknown }) {
    super(message.replace(/\s*\n\s*/g, ' '), options);
    this.code = code;
  }
}

/** Category of an {@link OfflineInputError}. */
export type OfflineErrorCode = 'syntax' | 'limit' | 'unsafe' | 'format' | 'unreadable';

/** `error` as an {@link OfflineInputError}: kept when it already is one, else wrapped with `context`. */
export function asOfflineError(error: unknown, context: string): OfflineInputError {
  if (error instanceof OfflineInputError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new OfflineInputError(`${context}: ${detail}`, 'unreadable', { cause: error });
}
