/** An API call that failed: an HTTP error with the server's `{error:{code,message}}` body, or an unreadable reply. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    /** HTTP status; 0 when the request never got a response. */
    readonly status: number,
    /** Machine-readable code from the error body (`not_found`, ...), or a client-side one (`bad_response`). */
    readonly code: string,
  ) {
    super(message);
  }
}
