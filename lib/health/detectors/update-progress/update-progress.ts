/**
 * The `update-progress` detector: one finding per update-health insight (Error → critical, Warning → warning,
 * Info → info) plus a summary of the update, and samples for charting progress. It returns the progress it computed
 * as `derived.updateProgress`, which the served health shows, so progress is computed once per evaluation.
 */
import type { Detector, DetectorOutput } from '@/lib/health/types';
import { MCO_DEPLOYMENT, snapshotUpdateProgress } from '@/lib/health/update-progress/update-progress';
import { insightFindings, progressSamples, summaryFinding } from './update-progress-findings';

export const updateProgress: Detector = {
  id: 'update-progress',
  title: 'Update progress',
  insight: {
    impactType: 'Update Stalled',
    scopeType: 'ControlPlane',
    referenceUrl:
      'https://docs.openshift.com/container-platform/latest/updating/troubleshooting_updates/gathering-data-cluster-update.html',
  },
  needs: [
    { resource: 'clusterversions' },
    { resource: 'clusteroperators' },
    { resource: 'machineconfigpools' },
    { resource: 'machineconfigs' },
    { resource: 'nodes' },
    // Its image tells whether machine-config really runs the new payload during a multi-arch migration.
    { resource: 'deployments', namespace: MCO_DEPLOYMENT.namespace, name: MCO_DEPLOYMENT.name },
  ],
  detect(snapshot, context): DetectorOutput {
    const progress = snapshotUpdateProgress(snapshot, context.now);
    // Alerts are other detectors' business: the findings come from cluster objects.
    const own = { ...progress, insights: progress.insights.filter((insight) => insight.subject?.kind !== 'Alert') };
    const findings = [...insightFindings(own), ...summaryFinding(own)];
    return { findings, samples: progressSamples(progress), derived: { updateProgress: progress } };
  },
};
