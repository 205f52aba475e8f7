// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FindingDto } from '@/lib/api/dto';
import { EvidenceDrawer } from './EvidenceDrawer';
import { FindingsList } from './FindingsList';

const XSS = '<img src=x onerror="window.__xss=1">';

const finding: FindingDto = {
  id: 'status-write-rejection:ClusterVersion/version',
  detector: 'status-write-rejection',
  severity: 'critical',
  subject: { kind: 'ClusterVersion', name: 'version' },
  title: `Status writes rejected ${XSS}`,
  summary: 'the next status write will be rejected',
  evidence: [
    {
      kind: 'field',
      label: 'Enabled capabilities',
      path: 'status.capabilities.enabledCapabilities[3]',
      value: ['MachineAPI', XSS],
    },
    {
      kind: 'log',
      label: 'CVO log',
      container: 'cluster-version-operator',
      lines: [`E0101 cvo.go:123] Error handling openshift-cluster-version/version: ${XSS}`],
    },
    { kind: 'metric', label: 'p99', value: 3.4, unit: 's' },
    { kind: 'object', label: 'CRD excerpt', excerpt: { enum: ['openshift-samples', XSS] } },
  ],
  remediation: [
    { title: 'Inspect', command: 'oc get clusterversion version -o yaml', docUrl: 'javascript:alert(1)' },
    { title: 'Read', docUrl: 'https://docs.openshift.com/container-platform/4.14/updating/' },
  ],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('EvidenceDrawer', () => {
  it('renders resource text as text, never as markup', () => {
    const { container } = render(
      <EvidenceDrawer findingId={finding.id} finding={finding} resolved={false} onClose={() => {}} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByTestId('evidence-log').textContent).toContain(XSS);
    expect(screen.getByTestId('evidence-value').textContent).toBe(`MachineAPI, ${XSS}`);
    expect(screen.getByTestId('evidence-path').textContent).toBe('status.capabilities.enabledCapabilities[3]');
    expect(screen.getByTestId('evidence-excerpt').textContent).toContain('"openshift-samples"');
    expect(screen.getByTestId('evidence-metric').textContent).toBe('3.4 s');
  });

  it('links only http(s) documentation', () => {
    render(<EvidenceDrawer findingId={finding.id} finding={finding} resolved={false} onClose={() => {}} />);
    const links = screen.getAllByRole('link');
    expect(links).toHaveLength(1);
    expect(links[0].getAttribute('href')).toBe('https://docs.openshift.com/container-platform/4.14/updating/');
  });

  it('copies a command and shows Copied', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<EvidenceDrawer findingId={finding.id} finding={finding} resolved={false} onClose={() => {}} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /Copy command/ }));
    });
    expect(writeText).toHaveBeenCalledWith('oc get clusterversion version -o yaml');
    expect(screen.getByText('Copied')).toBeTruthy();
  });

  it('stays open for a finding that is no longer reported, and closes on Escape', () => {
    const onClose = vi.fn();
    render(<EvidenceDrawer findingId={finding.id} finding={finding} resolved onClose={onClose} />);
    expect(screen.getByText(/no longer reported/)).toBeTruthy();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
  });
});

describe('FindingsList', () => {
  it('shows severity as text and opens evidence by button', () => {
    const onSelect = vi.fn();
    render(<FindingsList findings={[finding]} selectedId={null} onSelect={onSelect} />);
    expect(screen.getByTestId('severity-badge').textContent).toContain('Critical');
    fireEvent.click(screen.getByRole('button', { name: /Evidence/ }));
    expect(onSelect).toHaveBeenCalledWith(finding);
  });
});
