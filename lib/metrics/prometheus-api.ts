/**
 * Answers of the Prometheus HTTP API (`/api/v1/query`, `/api/v1/query_range`, `/api/v1/alerts`) validated and
 * turned into plain series. Values arrive as strings (`"0.42"`, `"+Inf"`, `"NaN"`); timestamps as float seconds.
 */
import { z } from 'zod';
import { parseSampleValue } from '@/lib/metrics/exposition';

const pair = z.tuple([z.number(), z.string()]);
const labels = z.record(z.string(), z.string());

const successSchema = z.object({
  status: z.literal('success'),
  data: z.discriminatedUnion('resultType', [
    z.object({ resultType: z.literal('matrix'), result: z.array(z.object({ metric: labels, values: z.array(pair) })) }),
    z.object({ resultType: z.literal('vector'), result: z.array(z.object({ metric: labels, value: pair })) }),
    z.object({ resultType: z.literal('scalar'), result: pair }),
    z.object({ resultType: z.literal('string'), result: pair }),
  ]),
  warnings: z.array(z.string()).optional(),
});

const errorSchema = z.object({
  status: z.literal('error'),
  errorType: z.string().optional(),
  error: z.string().optional(),
});

/** One series of a query answer: labels and points (`t` epoch ms, `v` number, NaN kept as null). */
export interface PromSeries {
  metric: Record<string, string>;
  points: { t: number; v: number | null }[];
}

/** A parsed query answer, or the error Prometheus (or the shape check) reported. */
export type PromQueryResult = { ok: true; series: PromSeries[]; warnings: string[] } | { ok: false; error: string };

function point([seconds, text]: [number, string]): { t: number; v: number | null } {
  const v = parseSampleValue(text);
  return { t: Math.round(seconds * 1000), v: v === undefined || Number.isNaN(v) ? null : v };
}

/** Parses the JSON body of a query or query_range answer. Never throws. */
export function parseQueryResponse(body: unknown): PromQueryResult {
  const failed = errorSchema.safeParse(body);
  if (failed.success)
    return { ok: false, error: `${failed.data.errorType ?? 'error'}: ${failed.data.error ?? 'unknown error'}` };
  const parsed = successSchema.safeParse(body);
  if (!parsed.success) return { ok: false, error: 'the answer is not a Prometheus query result' };
  const { data, warnings = [] } = parsed.data;
  switch (data.resultType) {
    case 'matrix':
      return {
        ok: true,
        warnings,
        series: data.result.map((s) => ({ metric: s.metric, points: s.values.map(point) })),
      };
    case 'vector':
      return { ok: true, warnings, series: data.result.map((s) => ({ metric: s.metric, points: [point(s.value)] })) };
    default:
      return { ok: true, warnings, series: [{ metric: {}, points: [point(data.result)] }] };
  }
}
