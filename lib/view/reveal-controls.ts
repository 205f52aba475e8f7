/**
 * Bidirectional-text controls (e.g. U+202E RIGHT-TO-LEFT OVERRIDE) in resource text can make a message or name
 * read as something else ("gnp.exe" shown as "exe.png"). The dashboard shows them as visible markers instead.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** `text` with every bidi control replaced by a visible `⟨U+202E⟩` marker. */
export function revealControls(text: string): string {
  return text.replace(
    BIDI_CONTROLS,
    (control) => `⟨U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );
}

/** A `JSON.parse` reviver applying {@link revealControls} to every string value of API data. */
export function revealingReviver(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? revealControls(value) : value;
}
