/** An empty panel states a reason only while its detector's finding states it. */
import { describe, expect, it } from 'vitest';
import { podSetupLatency } from '@/lib/health/detectors/pod-setup-latency/pod-setup-latency';
import { podSetupLatencyChart } from '@/lib/health/detectors/pod-setup-latency/chart-spec';
import { catalogReplicasChart } from '@/lib/health/detectors/catalog-replicas/chart-spec';
import type { Snapshot } from '@/lib/health/types';
import { makeContext, makeSnapshot } from '@/lib/health/testing/builders';
import { NO_SAMPLES_TEXT, panelEmptyText } from './panel-empty-text';

/** The pod-setup-latency detector's findings on a snapshot without latency. */
function findingsOf(rest: Partial<Omit<Snapshot, 'objects'>>) {
  return podSetupLatency.detect(makeSnapshot({}, rest), makeContext('2026-11-22T09:00:00Z')).findings;
}

describe('panelEmptyText', () => {
  it("says there is no metrics source only while the detector's finding says it", () => {
    const none = findingsOf({ idle: false });
    expect(none.map((finding) => finding.title)).toEqual(['No metrics source for pod-setup latency']);
    expect(panelEmptyText(podSetupLatencyChart, none)).toBe(`${none[0].title}. ${none[0].summary}`);
    expect(panelEmptyText(podSetupLatencyChart, none)).toMatch(/^No metrics source for pod-setup latency\. Neither /);
  });

  it('says only that no sample came while the first scrape runs, or the cluster is idle', () => {
    for (const snapshot of [{ metricsUnread: true }, { idle: true }]) {
      const findings = findingsOf(snapshot);
      expect(findings).toEqual([]);
      expect(panelEmptyText(podSetupLatencyChart, findings)).toBe(NO_SAMPLES_TEXT);
    }
  });

  it("takes no other detector's finding, and a panel without a stated reason says no sample came", () => {
    const none = findingsOf({});
    const elsewhere = none.map((finding) => ({ ...finding, detector: 'catalog-replicas' }));
    expect(panelEmptyText(podSetupLatencyChart, elsewhere)).toBe(NO_SAMPLES_TEXT);
    expect(panelEmptyText(catalogReplicasChart, none)).toBe(NO_SAMPLES_TEXT);
  });
});
