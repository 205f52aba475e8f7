/** Longest path segment or query value accepted (object names are at most 253 characters). */
export const MAX_SEGMENT_LENGTH = 1024;
/** Longest whole URL accepted. */
export const MAX_URL_LENGTH = 8192;

/** Why a request URL is refused before any route sees it. */
export interface UrlProblem {
  /** Which part: `path` or the query parameter's name. */
  where: string;
  message: string;
}

// C0/C1 controls (NUL included) and the bidi overrides/isolates that reorder text (Trojan Source).
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function decoded(
  raw: string,
  where: string,
  plusIsSpace: boolean,
): { ok: true; text: string } | { ok: false; problem: UrlProblem } {
  let text: string;
  try {
    text = decodeURIComponent(plusIsSpace ? raw.replace(/\+/g, ' ') : raw);
  } catch {
    return { ok: false, problem: { where, message: `malformed percent-encoding in ${where}` } };
  }
  if (text.length > MAX_SEGMENT_LENGTH)
    return { ok: false, problem: { where, message: `${where} is longer than ${MAX_SEGMENT_LENGTH} characters` } };
  // U+FFFD is what a lenient decoder left of invalid UTF-8 (the server may hand the query on already re-encoded)
  if (text.includes('\uFFFD'))
    return { ok: false, problem: { where, message: `malformed percent-encoding in ${where}` } };
  if (FORBIDDEN.test(text))
    return { ok: false, problem: { where, message: `${where} contains control or bidirectional-override characters` } };
  return { ok: true, text };
}

/**
 * Checks the raw path and query of a request URL (as sent, still percent-encoded): every path segment and every
 * query name and value must decode as UTF-8, stay within the length limits and hold no control or bidi-override
 * characters. Returns the first problem, or undefined when the URL is fine.
 */
export function checkRequestUrl(rawPath: string, rawQuery: string): UrlProblem | undefined {
  if (rawPath.length + rawQuery.length > MAX_URL_LENGTH)
    return { where: 'url', message: `the URL is longer than ${MAX_URL_LENGTH} characters` };
  for (const segment of rawPath.split('/')) {
    const result = decoded(segment, 'path', false);
    if (!result.ok) return result.problem;
  }
  for (const pair of rawQuery.replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const [rawName, ...rest] = pair.split('=');
    const name = decoded(rawName, 'a query parameter name', true);
    if (!name.ok) return name.problem;
    const value = decoded(rest.join('='), `query parameter "${name.text}"`, true);
    if (!value.ok) return value.problem;
  }
  return undefined;
}
