/**
 * Parser of the Prometheus text exposition format (version 0.0.4), as served by `/metrics` endpoints, and the
 * grouping of a histogram's `_bucket`, `_sum` and `_count` samples into one classic histogram per label set.
 */
import type { Bucket } from '@/lib/metrics/histogram-quantile';

/** One sample line: `name{labels} value [timestamp]`. */
export interface ExpositionSample {
  name: string;
  labels: Record<string, string>;
  value: number;
  /** Optional explicit timestamp (epoch ms). */
  timestampMs?: number;
}

/** The parsed document: samples in order, `# TYPE` declarations and the lines that could not be parsed. */
export interface ParsedExposition {
  samples: ExpositionSample[];
  types: Record<string, string>;
  /** `line N: reason` for each malformed line (at most {@link MAX_ERRORS}); such lines are skipped. */
  errors: string[];
}

/** Malformed lines reported at most; a hostile endpoint must not make the error list unbounded. */
export const MAX_ERRORS = 20;

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

/** Go's strconv.ParseFloat as the exposition uses it: decimals, exponents, `+Inf`, `-Inf`, `NaN`. */
export function parseSampleValue(text: string): number | undefined {
  switch (text) {
    case '+Inf':
    case 'Inf':
    case '+inf':
    case 'inf':
      return Infinity;
    case '-Inf':
    case '-inf':
      return -Infinity;
    case 'NaN':
    case 'nan':
      return NaN;
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  return Number(text);
}

function parseLabels(line: string, start: number): { labels: Record<string, string>; end: number } | string {
  const labels: Record<string, string> = {};
  let i = start + 1;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] === '}') return { labels, end: i + 1 };
    const name = LABEL_NAME.exec(line.slice(i))?.[0];
    if (!name) return 'invalid label name';
    i += name.length;
    while (line[i] === ' ') i++;
    if (line[i] !== '=' || line[i + 1] !== '"') return `label ${name} has no quoted value`;
    i += 2;
    let value = '';
    for (;;) {
      const c = line[i];
      if (c === undefined) return `unterminated value of label ${name}`;
      if (c === '"') break;
      if (c === '\\') {
        const next = line[i + 1];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else return `invalid escape in label ${name}`;
        i += 2;
        continue;
      }
      value += c;
      i++;
    }
    if (Object.hasOwn(labels, name)) return `duplicate label ${name}`;
    labels[name] = value;
    i++;
    while (line[i] === ' ') i++;
    if (line[i] === ',') i++;
    else if (line[i] !== '}') return 'expected , or } after a label';
  }
}

function parseSampleLine(line: string): ExpositionSample | string {
  const name = NAME.exec(line)?.[0];
  if (!name) return 'invalid metric name';
  let labels: Record<string, string> = {};
  let i = name.length;
  if (line[i] === '{') {
    const parsed = parseLabels(line, i);
    if (typeof parsed === 'string') return parsed;
    labels = parsed.labels;
    i = parsed.end;
  }
  const rest = line
    .slice(i)
    .trim()
    .split(/[ \t]+/);
  if (rest.length < 1 || rest.length > 2 || rest[0] === '') return 'expected a value and an optional timestamp';
  const value = parseSampleValue(rest[0]);
  if (value === undefined) return `invalid value "${rest[0].slice(0, 40)}"`;
  const sample: ExpositionSample = { name, labels, value };
  if (rest.length === 2) {
    if (!/^-?\d+$/.test(rest[1])) return `invalid timestamp "${rest[1].slice(0, 40)}"`;
    sample.timestampMs = Number(rest[1]);
  }
  return sample;
}

/** Parses an exposition document. Never throws: malformed lines are skipped and named in `errors`. */
export function parseExposition(text: string): ParsedExposition {
  const out: ParsedExposition = { samples: [], types: {}, errors: [] };
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].replace(/\r$/, '').trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const meta = /^#\s+TYPE\s+(\S+)\s+(\S+)\s*$/.exec(line);
      if (meta) out.types[meta[1]] = meta[2];
      continue;
    }
    const parsed = parseSampleLine(line);
    if (typeof parsed === 'string') {
      if (out.errors.length < MAX_ERRORS) out.errors.push(`line ${n + 1}: ${parsed}`);
      continue;
    }
    out.samples.push(parsed);
  }
  return out;
}

/** One classic histogram series: its labels (without `le`), cumulative buckets, total count and sum. */
export interface HistogramSeries {
  labels: Record<string, string>;
  buckets: Bucket[];
  count?: number;
  sum?: number;
}

/** A stable key of a label set (sorted `name="value"` pairs). */
export function labelKey(labels: Record<string, string>): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(',');
}

/**
 * The histograms named `metric` (its `_bucket`, `_sum`, `_count` samples) grouped by label set without `le`.
 * Bucket samples with an unparseable `le` are ignored, as Prometheus ignores them in `histogram_quantile`.
 */
export function histogramsOf(samples: readonly ExpositionSample[], metric: string): HistogramSeries[] {
  const byKey = new Map<string, HistogramSeries>();
  const entry = (labels: Record<string, string>): HistogramSeries => {
    const key = labelKey(labels);
    let found = byKey.get(key);
    if (!found) {
      found = { labels, buckets: [] };
      byKey.set(key, found);
    }
    return found;
  };
  for (const sample of samples) {
    if (sample.name === `${metric}_bucket`) {
      const { le, ...rest } = sample.labels;
      const bound = le === undefined ? undefined : parseSampleValue(le);
      if (bound === undefined || Number.isNaN(bound)) continue;
      entry(rest).buckets.push({ le: bound, count: sample.value });
    } else if (sample.name === `${metric}_count`) {
      entry(sample.labels).count = sample.value;
    } else if (sample.name === `${metric}_sum`) {
      entry(sample.labels).sum = sample.value;
    }
  }
  return [...byKey.values()];
}
