/**
 * A dynamic route segment as the user wrote it: Next hands `[id]` over percent-encoded; a malformed escape is kept
 * verbatim so the page can say "not found" instead of crashing.
 */
export function decodePathSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
