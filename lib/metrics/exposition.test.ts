import { describe, expect, it } from 'vitest';
import { histogramsOf, parseExposition, parseSampleValue } from '@/lib/metrics/exposition';
import { histogramQuantile } from '@/lib/metrics/histogram-quantile';

// As prom-client 15 renders a labelled histogram (the ovnkube CNI histogram), plus a gauge with escapes.
const TEXT = [
  '# HELP ovnkube_node_cni_request_duration_seconds The duration of CNI server requests.',
  '# TYPE ovnkube_node_cni_request_duration_seconds histogram',
  'ovnkube_node_cni_request_duration_seconds_bucket{le="0.1",command="ADD",err="false"} 2',
  'ovnkube_node_cni_request_duration_seconds_bucket{le="0.2",command="ADD",err="false"} 5',
  'ovnkube_node_cni_request_duration_seconds_bucket{le="+Inf",command="ADD",err="false"} 6',
  'ovnkube_node_cni_request_duration_seconds_sum{command="ADD",err="false"} 1.25',
  'ovnkube_node_cni_request_duration_seconds_count{command="ADD",err="false"} 6',
  'ovnkube_node_cni_request_duration_seconds_bucket{le="0.1",command="DEL",err="false"} 1',
  'ovnkube_node_cni_request_duration_seconds_bucket{le="+Inf",command="DEL",err="false"} 1',
  '',
  '# TYPE weird gauge',
  'weird{path="C:\\\\x",msg="say \\"hi\\"\\nbye"} -Inf 1700000000000',
  'weird{} NaN',
].join('\n');

describe('parseExposition', () => {
  it('reads samples, labels with escapes, special values, timestamps and TYPE lines', () => {
    const parsed = parseExposition(TEXT);
    expect(parsed.errors).toEqual([]);
    expect(parsed.types).toEqual({ ovnkube_node_cni_request_duration_seconds: 'histogram', weird: 'gauge' });
    expect(parsed.samples).toHaveLength(9);
    expect(parsed.samples[2]).toEqual({
      name: 'ovnkube_node_cni_request_duration_seconds_bucket',
      labels: { le: '+Inf', command: 'ADD', err: 'false' },
      value: 6,
    });
    const weird = parsed.samples[7];
    expect(weird.labels).toEqual({ path: 'C:\\x', msg: 'say "hi"\nbye' });
    expect(weird.value).toBe(-Infinity);
    expect(weird.timestampMs).toBe(1_700_000_000_000);
    expect(parsed.samples[8].value).toBeNaN();
  });

  it('skips malformed lines and names them', () => {
    const parsed = parseExposition('ok 1\n9bad 1\nx{a="1} 2\nx{a=1} 2\ny 1 2 3\nz abc\nw{a="1",a="2"} 1\nv 1 1.5\n');
    expect(parsed.samples.map((s) => s.name)).toEqual(['ok']);
    expect(parsed.errors).toEqual([
      'line 2: invalid metric name',
      'line 3: unterminated value of label a',
      'line 4: label a has no quoted value',
      'line 5: expected a value and an optional timestamp',
      'line 6: invalid value "abc"',
      'line 7: duplicate label a',
      'line 8: invalid timestamp "1.5"',
    ]);
  });

  it('caps the error list', () => {
    expect(parseExposition('!\n'.repeat(100)).errors).toHaveLength(20);
  });

  it.each([
    ['1e3', 1000],
    ['-0.5', -0.5],
    ['.5', 0.5],
    ['+Inf', Infinity],
    ['0x10', undefined],
    ['', undefined],
  ])('value %s → %s', (text, value) => {
    expect(parseSampleValue(text)).toBe(value);
  });
});

describe('histogramsOf', () => {
  it('groups buckets, sum and count by labels without le', () => {
    const series = histogramsOf(parseExposition(TEXT).samples, 'ovnkube_node_cni_request_duration_seconds');
    expect(series).toEqual([
      {
        labels: { command: 'ADD', err: 'false' },
        buckets: [
          { le: 0.1, count: 2 },
          { le: 0.2, count: 5 },
          { le: Infinity, count: 6 },
        ],
        sum: 1.25,
        count: 6,
      },
      {
        labels: { command: 'DEL', err: 'false' },
        buckets: [
          { le: 0.1, count: 1 },
          { le: Infinity, count: 1 },
        ],
      },
    ]);
    // rank 3 of 6 in (0.1, 0.2]: 0.1 + 0.1 × (3 − 2) / 3
    expect(histogramQuantile(0.5, series[0].buckets)).toBeCloseTo(0.1 + 0.1 / 3, 12);
  });

  it('ignores buckets without a numeric le', () => {
    const series = histogramsOf(parseExposition('x_bucket{le="abc"} 1\nx_bucket 2\nx_bucket{le="1"} 3\n').samples, 'x');
    expect(series).toEqual([{ labels: {}, buckets: [{ le: 1, count: 3 }] }]);
  });
});
