import { describe, expect, it } from 'vitest';
import type { FindingDto } from '@/lib/api/dto';
import {
  EVIDENCE_MIN_INTERVAL_MS,
  evidenceDigest,
  findingRefs,
  nextFindingState,
  observeFinding,
  type FindingObservation,
} from './finding-lifecycle';

const finding: FindingDto = {
  id: 'node-drain:Node//worker-1',
  detector: 'node-drain',
  severity: 'warning',
  subject: { kind: 'Node', name: 'worker-1' },
  title: 'Drain of worker-1 is blocked',
  summary: 'A PodDisruptionBudget refuses the eviction',
  evidence: [
    { kind: 'field', label: 'budget', ref: { kind: 'PodDisruptionBudget', name: 'db', namespace: 'shop' } },
    { kind: 'field', label: 'node', ref: { kind: 'Node', name: 'worker-1' } },
  ],
  remediation: [],
  since: '2026-11-25T10:00:00.000Z',
};
const T = Date.parse('2026-11-25T10:05:00.000Z');

describe('what the history records of a finding', () => {
  it('keeps the objects a finding is built from once each, and digests what it says, not its remediation', () => {
    expect(findingRefs(finding)).toEqual([
      { kind: 'Node', name: 'worker-1' },
      { kind: 'PodDisruptionBudget', name: 'db', namespace: 'shop' },
    ]);
    expect(evidenceDigest(finding)).toMatch(/^[0-9a-f]{8}$/);
    expect(evidenceDigest({ ...finding, remediation: [{ title: 'x' }] } as FindingDto)).toBe(evidenceDigest(finding));
    expect(evidenceDigest({ ...finding, evidence: finding.evidence.slice(1) })).not.toBe(evidenceDigest(finding));
  });

  it('opens at the detector onset, changes severity and evidence, and resolves, each once', () => {
    const seen = observeFinding(finding);
    const opened = nextFindingState('c1', undefined, seen, T)!;
    expect(opened.event).toMatchObject({
      kind: 'opened',
      at: Date.parse(finding.since!),
      openedAt: opened.state.openedAt,
    });
    expect(opened.state).toMatchObject({ revision: 1, resolvedAt: null, severity: 'warning' });
    expect(nextFindingState('c1', opened.state, seen, T + 5_000)).toBeUndefined();

    const critical: FindingObservation = { ...seen, severity: 'critical' };
    const raised = nextFindingState('c1', opened.state, critical, T + 10_000)!;
    expect(raised.event).toMatchObject({ kind: 'severity', at: T + 10_000, severity: 'critical' });
    expect(raised.state.revision).toBe(2);

    // An evidence change within a minute of the last one waits; after it, it is recorded with the newest digest.
    const changed: FindingObservation = { ...critical, digest: 'deadbeef' };
    expect(nextFindingState('c1', raised.state, changed, T + 20_000)).toBeUndefined();
    const evidence = nextFindingState('c1', raised.state, changed, T + 10_000 + EVIDENCE_MIN_INTERVAL_MS)!;
    expect(evidence.event).toMatchObject({ kind: 'evidence', digest: 'deadbeef' });

    const resolved = nextFindingState('c1', evidence.state, undefined, T + 200_000)!;
    expect(resolved.event).toMatchObject({ kind: 'resolved', at: T + 200_000, openedAt: opened.state.openedAt });
    expect(nextFindingState('c1', resolved.state, undefined, T + 300_000)).toBeUndefined();
  });

  it('reopens a new episode no earlier than the last resolution, even when the onset says earlier', () => {
    const seen = observeFinding(finding);
    const opened = nextFindingState('c1', undefined, seen, T)!;
    const resolved = nextFindingState('c1', opened.state, undefined, T + 60_000)!;
    const again = nextFindingState('c1', resolved.state, seen, T + 120_000)!;
    expect(again.event).toMatchObject({ kind: 'opened', openedAt: T + 60_000 });
    expect(again.state.revision).toBe(3);
    const noOnset = nextFindingState('c1', undefined, { ...seen, since: undefined }, T)!;
    expect(noOnset.state.openedAt).toBe(T);
  });
});
