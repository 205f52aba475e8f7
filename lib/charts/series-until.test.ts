import { describe, expect, it } from 'vitest';
import { seriesUntil } from './series-until';

describe('series as they stood at a moment', () => {
  it('keeps samples and transitions up to the moment, ends the charts there, and says how far back they reach', () => {
    const at = Date.parse('2026-11-25T10:10:00Z');
    const { series, reach } = seriesUntil(
      {
        clusterId: 'c',
        now: at + 600_000,
        samples: {
          d: [
            { t: at - 60_000, values: { v: 1 } },
            { t: at, values: { v: 2 } },
            { t: at + 1, values: { v: 3 } },
          ],
        },
        transitions: [
          { ref: { kind: 'Node', name: 'n' }, type: 'Ready', status: 'False', at: '2026-11-25T10:09:00Z' },
          { ref: { kind: 'Node', name: 'n' }, type: 'Ready', status: 'True', at: '2026-11-25T10:11:00Z' },
        ],
      },
      at,
    );
    expect(series.now).toBe(at);
    expect(series.samples.d.map((point) => point.values.v)).toEqual([1, 2]);
    expect(series.transitions.map((t) => t.status)).toEqual(['False']);
    expect(reach).toBe(at - 60_000);
    expect(seriesUntil({ clusterId: 'c', now: at, samples: {}, transitions: [] }, at).reach).toBeNull();
  });
});
