import type { SimClient, VirtualClock } from '../types';
import { ALERT_RULES, type AlertRule } from './alert-rules';

/** One active alert, as Prometheus' rule manager holds it. */
export interface ActiveAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: 'pending' | 'firing';
  /** When the expression first held (epoch ms). */
  activeAt: number;
}

/** Prometheus' default rule evaluation interval in OpenShift. */
export const EVALUATION_INTERVAL_MS = 30_000;

function key(labels: Record<string, string>): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(',');
}

/**
 * Evaluates alerting rules over the simulated cluster's objects on the virtual clock, with Prometheus' semantics:
 * an instance is pending from the first evaluation its expression holds (`activeAt`) and firing once that lasted
 * `for`; it disappears when the expression stops holding. Instances already holding at the first evaluation are
 * back-dated to the transition their objects record, as a Prometheus that had always been running would have them.
 */
export class AlertEvaluator {
  private readonly active = new Map<string, ActiveAlert & { rule: AlertRule }>();
  private evaluated = false;
  private lastEvaluation = 0;

  constructor(
    private readonly client: SimClient,
    private readonly clock: VirtualClock,
    private readonly rules: readonly AlertRule[] = ALERT_RULES,
  ) {}

  /** Evaluates now and then every {@link EVALUATION_INTERVAL_MS}; returns the cancel function. */
  start(): () => void {
    this.evaluate();
    return this.clock.setInterval(() => this.evaluate(), EVALUATION_INTERVAL_MS);
  }

  /** One evaluation of every rule. */
  evaluate(): void {
    const now = this.clock.now();
    const seen = new Set<string>();
    for (const rule of this.rules) {
      for (const instance of rule.evaluate(this.client)) {
        const labels = { alertname: rule.alert, ...instance.labels, ...rule.labels };
        const id = key(labels);
        seen.add(id);
        const existing = this.active.get(id);
        const activeAt =
          existing?.activeAt ?? (!this.evaluated && instance.since !== undefined ? Math.min(now, instance.since) : now);
        this.active.set(id, {
          rule,
          labels,
          activeAt,
          annotations: rule.annotations(labels),
          state: now - activeAt >= rule.forMs ? 'firing' : 'pending',
        });
      }
    }
    for (const id of [...this.active.keys()]) if (!seen.has(id)) this.active.delete(id);
    this.evaluated = true;
    this.lastEvaluation = now;
  }

  /** Active alerts as of the last evaluation, sorted by name then labels. */
  alerts(): ActiveAlert[] {
    return [...this.active.values()]
      .map(({ labels, annotations, state, activeAt }) => ({ labels, annotations, state, activeAt }))
      .sort((a, b) => key(a.labels).localeCompare(key(b.labels)));
  }

  /** Virtual time of the last evaluation (epoch ms). */
  evaluatedAt(): number {
    return this.lastEvaluation;
  }

  /** The `for` duration of a rule by alert name (ALERTS_FOR_STATE exists only for rules with one). */
  forOf(alertname: string): number {
    return this.rules.find((rule) => rule.alert === alertname)?.forMs ?? 0;
  }
}
