/** A run of log lines that differ only in their leading timestamp. */
export interface CollapsedLine {
  /** The first line of the run, as logged. */
  line: string;
  /** The line without its leading timestamp (the whole line when it has none). */
  text: string;
  /** How many lines the run holds (1 for a line that is not repeated). */
  count: number;
  /** Timestamp text of the first and last line of the run, when the lines carry one. */
  first?: string;
  last?: string;
}

// RFC 3339 (`2026-01-01T00:00:00.123Z`), klog (`E0101 00:00:00.123456`) or a bare clock, then blanks.
const LEADING_TIME =
  /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?|[IWEF]\d{4} \d{2}:\d{2}:\d{2}(?:\.\d+)?|\d{2}:\d{2}:\d{2}(?:\.\d+)?)\s+/;

function splitTime(line: string): { time?: string; text: string } {
  const m = LEADING_TIME.exec(line);
  if (!m) return { text: line };
  // klog keeps its severity letter with the message so an E line never merges with an I line.
  const klog = /^[IWEF]\d{4} /.test(m[1]);
  return klog
    ? { time: m[1].slice(1), text: `${m[1][0]} ${line.slice(m[0].length)}` }
    : { time: m[1], text: line.slice(m[0].length) };
}

/**
 * Collapses consecutive log lines that repeat the same message (ignoring a leading RFC 3339 or klog timestamp) into
 * one entry with a count and the first and last timestamps, keeping the original order of distinct runs.
 */
export function collapseRepeats(lines: readonly string[]): CollapsedLine[] {
  const out: CollapsedLine[] = [];
  for (const line of lines) {
    const { time, text } = splitTime(line);
    const prev = out[out.length - 1];
    if (prev && prev.text === text) {
      prev.count += 1;
      if (time !== undefined) {
        prev.first ??= time;
        prev.last = time;
      }
      continue;
    }
    out.push(time === undefined ? { line, text, count: 1 } : { line, text, count: 1, first: time, last: time });
  }
  return out;
}
