import 'server-only';
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { ClusterHealthDto } from '@/lib/api/dto';
import { updateStateOfHealth } from '@/lib/cluster/update-state';
import { gaugeFamilyText, type GaugeSample } from '@/lib/metrics/exposition-writer';
import {
  findingKindsOf,
  followUpdate,
  updateSignalsOf,
  type FinishedUpdate,
  type UpdateWatch,
} from '@/lib/metrics/health-signals';

/** One fleet member as the signals read it (kept structural so this module never imports the engine). */
export interface SignalMember {
  id: string;
  health(): ClusterHealthDto;
}

/** Updates take from under an hour to a day: buckets from 15 min to 24 h. */
const DURATION_BUCKETS = [900, 1800, 2700, 3600, 5400, 7200, 10_800, 14_400, 21_600, 28_800, 43_200, 86_400];

const FINDING_FAMILY = {
  name: 'update_health_finding',
  help:
    'An active finding kind on a cluster (1): one series per cluster, detector and severity (critical, warning, ' +
    'info), with the failure mode (A-E, none for context detectors); no series once resolved.',
};
const PHASE_FAMILY = {
  name: 'update_health_cluster_update_phase',
  help: "The phase of a cluster's update (1), as the cluster page's header tells it: one series per cluster.",
};
const COMPLETION_FAMILY = {
  name: 'update_health_cluster_update_completion_ratio',
  help:
    "How much of a cluster's update is done (0-1): control_plane = ClusterOperators at the target, workers = " +
    'worker nodes at the target; no series where it is not known.',
};

/**
 * The fleet's findings and update state as Prometheus series, for the alert rules shipped in
 * deploy/openshift/prometheusrule.yaml. The per-cluster families are written at scrape time from each member's
 * published health ({@link HealthSignals.exposition}); the update duration histogram is observed when a member's
 * update finishes ({@link HealthSignals.look}). Series exist only for active findings and current phases, so a
 * finding that resolves ends its series and its alert resolves.
 */
export class HealthSignals {
  private members: (() => Iterable<SignalMember>) | undefined;
  private publicUrl = '';
  private readonly watches = new Map<string, UpdateWatch>();
  readonly updateSeconds: Histogram<'from_minor' | 'to_minor'>;

  constructor(registry: Registry) {
    const publicUrl = () => this.publicUrl;
    new Gauge({
      name: 'update_health_dashboard_info',
      help: "The dashboard's public URL (UPDATE_HEALTH_PUBLIC_URL), which alert links open (1).",
      labelNames: ['public_url'],
      registers: [registry],
      collect() {
        this.reset();
        this.set({ public_url: publicUrl() }, 1);
      },
    });
    this.updateSeconds = new Histogram({
      name: 'update_health_update_duration_seconds',
      help:
        'How long finished updates (and rollbacks) took, from the start of their ClusterVersion history entry ' +
        'until the control plane and every worker pool were at the target, by minor versions.',
      labelNames: ['from_minor', 'to_minor'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
  }

  /**
   * The per-cluster families, one pass over the members: findings, update phase and completion. Written here, not
   * by prom-client: at 3,500 clusters (20,000 series) its per-series label bookkeeping made a scrape take about
   * 100 ms of the event loop.
   */
  exposition(): string {
    const findings: GaugeSample[] = [];
    const phases: GaugeSample[] = [];
    const completions: GaugeSample[] = [];
    for (const member of this.members?.() ?? []) {
      const cluster = member.id;
      const health = member.health();
      for (const kind of findingKindsOf(health.findings)) {
        const { detector, failureMode: failure_mode, severity } = kind;
        findings.push({ labels: { cluster, detector, failure_mode, severity }, value: 1 });
      }
      const signals = updateSignalsOf(updateStateOfHealth(health));
      phases.push({ labels: { cluster, phase: signals.phase }, value: 1 });
      for (const { part, ratio } of signals.completion) completions.push({ labels: { cluster, part }, value: ratio });
    }
    return [
      gaugeFamilyText(FINDING_FAMILY.name, FINDING_FAMILY.help, findings),
      gaugeFamilyText(PHASE_FAMILY.name, PHASE_FAMILY.help, phases),
      gaugeFamilyText(COMPLETION_FAMILY.name, COMPLETION_FAMILY.help, completions),
    ].join('\n');
  }

  /** Where the members come from at scrape time, and the public URL alert links open (empty: relative links). */
  observe(members: () => Iterable<SignalMember>, publicUrl: string | undefined): void {
    this.members = members;
    this.publicUrl = (publicUrl ?? '').replace(/\/+$/, '');
  }

  /** One look at a member's health (`now`: its cluster's clock); observes its update's duration when it finished. */
  look(id: string, health: ClusterHealthDto, now: number): FinishedUpdate | undefined {
    const { watch, finished } = followUpdate(this.watches.get(id), health, now);
    this.watches.set(id, watch);
    if (finished)
      this.updateSeconds.observe({ from_minor: finished.fromMinor, to_minor: finished.toMinor }, finished.seconds);
    return finished;
  }
}
