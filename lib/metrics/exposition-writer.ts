/**
 * Writer of gauge families in the Prometheus text exposition format (version 0.0.4), for series counted in the
 * thousands (one per cluster), where a client library's per-series bookkeeping costs more than the text itself.
 */

/** One sample of a gauge: its labels, in the order they are written, and its value. */
export interface GaugeSample {
  labels: Readonly<Record<string, string>>;
  value: number;
}

function escapeText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(value: string): string {
  return escapeText(value).replace(/"/g, '\\"');
}

function sampleValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/**
 * A gauge family as text: its `# HELP` and `# TYPE` lines, then one line per sample, each line ending in a newline.
 * Label values and the help text are escaped as the format requires (backslash, newline, and in values the double
 * quote). `name` and the label names must be valid metric and label names; they are written as given.
 */
export function gaugeFamilyText(name: string, help: string, samples: Iterable<GaugeSample>): string {
  const lines = [`# HELP ${name} ${escapeText(help)}`, `# TYPE ${name} gauge`];
  for (const { labels, value } of samples) {
    const pairs: string[] = [];
    for (const label in labels) pairs.push(`${label}="${escapeLabelValue(labels[label])}"`);
    lines.push(`${name}${pairs.length > 0 ? `{${pairs.join(',')}}` : ''} ${sampleValue(value)}`);
  }
  return `${lines.join('\n')}\n`;
}
