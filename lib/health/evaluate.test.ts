import { describe, expect, it } from 'vitest';
import type { Detector, Finding, Severity } from '@/lib/health/types';
import { evaluate } from '@/lib/health/evaluate';
import { makeContext, makeSnapshot } from '@/lib/health/testing/builders';

const ctx = makeContext('2025-01-01T00:00:00Z');
const finding = (id: string, severity: Severity): Finding => ({
  id,
  detector: 'catalog-replicas',
  severity,
  subject: { kind: 'Deployment', name: 'x' },
  title: id,
  summary: '',
  evidence: [],
  remediation: [],
});
const INSIGHT: Detector['insight'] = {
  impactType: 'Update Stalled',
  scopeType: 'ControlPlane',
  referenceUrl: 'https://example.invalid/runbook',
};
const detector = (id: Detector['id'], detect: Detector['detect']): Detector => ({
  id,
  title: `T ${id}`,
  insight: INSIGHT,
  needs: [],
  detect,
});

describe('evaluate', () => {
  it('sorts worst severity first, then by id, and collects samples per detector', () => {
    const out = evaluate(makeSnapshot(), ctx, [
      detector('catalog-replicas', () => ({
        findings: [finding('b', 'warning'), finding('z', 'critical')],
        samples: { ready: 1 },
      })),
      detector('install-settling', () => ({
        findings: [finding('a', 'warning'), finding('c', 'info'), finding('y', 'ok')],
      })),
    ]);
    expect(out.findings.map((f) => f.id)).toStrictEqual(['z', 'a', 'b', 'c', 'y']);
    expect(out.samples).toStrictEqual({ 'catalog-replicas': { ready: 1 } });
  });

  it('turns a throwing detector into a warning finding and keeps the others', () => {
    const out = evaluate(makeSnapshot(), ctx, [
      detector('pod-setup-latency', () => {
        throw new TypeError("Cannot read properties of undefined (reading 'quantiles')");
      }),
      detector('install-settling', () => ({ findings: [finding('ok-one', 'info')], samples: { streakLength: 0 } })),
    ]);
    expect(out).toStrictEqual({
      findings: [
        {
          id: 'pod-setup-latency:Detector//pod-setup-latency:failed',
          detector: 'pod-setup-latency',
          severity: 'warning',
          subject: { kind: 'Detector', name: 'pod-setup-latency' },
          title: 'Detector "T pod-setup-latency" failed',
          summary:
            "The T pod-setup-latency detector threw while evaluating this snapshot, so its findings are missing: Cannot read properties of undefined (reading 'quantiles')",
          evidence: [
            { kind: 'field', label: 'Error', value: "Cannot read properties of undefined (reading 'quantiles')" },
          ],
          remediation: [],
          // a blind spot: oc would call its impact Unknown
          insight: {
            level: 'Warning',
            impactType: 'Unknown',
            scope: { type: 'ControlPlane', resources: [] },
            referenceUrl: INSIGHT.referenceUrl,
          },
        },
        {
          ...finding('ok-one', 'info'),
          insight: {
            level: 'Info',
            impactType: 'Update Stalled',
            scope: { type: 'ControlPlane', resources: [{ kind: 'Deployment', name: 'x' }] },
            referenceUrl: INSIGHT.referenceUrl,
          },
        },
      ],
      samples: { 'install-settling': { streakLength: 0 } },
    });
  });

  it("runs the registered detectors on an empty snapshot without failing, every finding in oc's vocabulary", () => {
    const out = evaluate(makeSnapshot(), ctx);
    expect(out.findings.filter((f) => f.id.endsWith(':failed'))).toStrictEqual([]);
    for (const f of out.findings) expect(f.insight, f.id).toBeDefined();
    expect(out.findings.map((f) => f.id)).toContain(
      'pod-setup-latency:Metric//ovnkube_controller_pod_creation_latency_seconds:no-metrics-source',
    );
  });
});
