// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterSeriesDto, FindingDto } from '@/lib/api/dto';
import { podSetupLatency } from '@/lib/health/detectors/pod-setup-latency/pod-setup-latency';
import { makeContext, makeSnapshot } from '@/lib/health/testing/builders';
import { DetectorPanels } from './DetectorPanels';

afterEach(cleanup);

const NOW = Date.parse('2026-11-22T09:00:00Z');
const series: ClusterSeriesDto = { clusterId: 'c1', now: NOW, samples: {}, transitions: [] };
/** What the pod-setup-latency detector publishes when no source reports the metric. */
const noSource: FindingDto[] = podSetupLatency.detect(makeSnapshot(), makeContext('2026-11-22T09:00:00Z')).findings;

function renderPanels(findings: FindingDto[]) {
  render(<DetectorPanels series={series} findings={findings} range="1h" focusedPanel={null} onFocusPanel={() => {}} />);
  return screen.getByTestId('panel-pod-setup-latency');
}

describe('DetectorPanels', () => {
  it('an empty pod-setup-latency panel says "no metrics source" only while the detector says it', () => {
    const stated = renderPanels(noSource);
    // the finding's own words, so the panel and the finding cannot tell two stories
    expect(stated.textContent).toContain(`${noSource[0].title}. ${noSource[0].summary}`);
    cleanup();
    // a first scrape still running, or an idle cluster, publishes no such finding: the panel claims no cause
    const unknown = renderPanels([]);
    expect(unknown.textContent).not.toContain('No metrics source');
    expect(unknown.textContent).toContain('No samples in this range yet.');
  });
});
