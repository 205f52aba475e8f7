import { describe, expect, it } from 'vitest';
import { evidenceCounts, findingRowSummary, ROW_SUMMARY_MAX } from './finding-row';

const components = Array.from({ length: 33 }, (_, i) => `component-${i + 1}`).join(', ');

describe('findingRowSummary', () => {
  it('keeps the first sentence and its count, without a long list of names', () => {
    const summary =
      `HostedCluster status.featureGates has no status entry for 4.14.38, still required by 33 control-plane ` +
      `components (${components}). Components at 4.14.38 fail to start with 'missing desired version "4.14.38"'.`;
    expect(findingRowSummary(summary)).toBe(
      'HostedCluster status.featureGates has no status entry for 4.14.38, still required by 33 control-plane components.',
    );
  });

  it('keeps a short list, version numbers and a sentence that is already short', () => {
    const summary = 'still required by 2 ClusterOperators (dns, ingress) at 4.14.38. More detail follows.';
    expect(findingRowSummary(summary)).toBe('still required by 2 ClusterOperators (dns, ingress) at 4.14.38.');
    expect(findingRowSummary('the next status write will be rejected')).toBe('the next status write will be rejected');
  });

  it('cuts a long sentence at a word with an ellipsis', () => {
    const long = `${'word '.repeat(60)}end.`;
    const row = findingRowSummary(long);
    expect(row.length).toBeLessThanOrEqual(ROW_SUMMARY_MAX);
    expect(row).toMatch(/word…$/);
  });
});

describe('evidenceCounts', () => {
  it('counts evidence by kind, most first', () => {
    const kinds = ['field', 'log', 'log', 'condition'] as const;
    expect(evidenceCounts(kinds.map((kind) => ({ kind })))).toBe('2 logs · 1 condition · 1 field');
    expect(evidenceCounts([])).toBe('');
  });
});
