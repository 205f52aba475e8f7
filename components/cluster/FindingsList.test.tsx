// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FindingDto } from '@/lib/api/dto';
import { DETECTORS } from '@/lib/health/registry';
import { makeClusterOperator, makeClusterVersion, makeContext, makeSnapshot } from '@/lib/health/testing/builders';
import { EvidenceDrawer } from './EvidenceDrawer';
import { FindingsList } from './FindingsList';

/** The FeatureGate finding as the detector writes it when 33 components still run the version its status lacks. */
function featureGateFinding(): FindingDto {
  const detector = DETECTORS.find((d) => d.id === 'featuregate-coverage')!;
  const operators = Array.from({ length: 33 }, (_, i) => makeClusterOperator(`component-${i + 1}`, '4.14.38'));
  const snapshot = makeSnapshot({
    clusterversions: [
      makeClusterVersion({
        desired: '4.14.39',
        progressing: true,
        history: [
          { version: '4.14.39', state: 'Partial' },
          { version: '4.14.38', state: 'Completed' },
        ],
      }),
    ],
    clusteroperators: operators,
    featuregates: [
      {
        apiVersion: 'config.openshift.io/v1',
        kind: 'FeatureGate',
        metadata: { name: 'cluster' },
        status: { featureGates: [{ version: '4.14.39', enabled: [], disabled: [] }] },
      },
    ],
  });
  const [finding] = detector.detect(snapshot, makeContext('2024-06-01T12:00:00Z')).findings;
  expect(finding.summary).toContain('component-33');
  return finding as FindingDto;
}

afterEach(cleanup);

describe('a findings-list row', () => {
  it('says what is wrong in one short line with the evidence counted, the long list left to the drawer', () => {
    const finding = featureGateFinding();
    render(<FindingsList findings={[finding]} selectedId={null} onSelect={() => {}} />);
    const row = screen.getByTestId('finding');
    expect(within(row).getByRole('heading').textContent).toBe(finding.title);
    const line = within(row).getByTestId('finding-summary').textContent!;
    expect(line).toContain('33 ClusterOperators');
    expect(line).not.toContain('component-1');
    expect(line.length).toBeLessThanOrEqual(160);
    expect(row.textContent).not.toContain('component-17');
    const fields = finding.evidence.filter((e) => e.kind === 'field').length;
    expect(fields).toBeGreaterThan(1);
    expect(within(row).getByTestId('finding-evidence-counts').textContent).toMatch(new RegExp(`(^| )${fields} fields`));

    cleanup();
    render(<EvidenceDrawer findingId={finding.id} finding={finding} resolved={false} onClose={() => {}} />);
    expect(screen.getByText(finding.summary)).toBeTruthy();
  });
});
