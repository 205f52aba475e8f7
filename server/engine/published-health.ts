import 'server-only';
import { createHash } from 'node:crypto';
import type {
  ClusterHealthDto,
  ClusterSeriesDto,
  ClusterSummaryDto,
  StreamMessage,
  TransitionDto,
} from '@/lib/api/dto';
import type { Assessment } from '@/lib/cluster/assess-cluster';
import { summaryOf } from '@/lib/cluster/cluster-summary';
import { SERIES_CAPACITY, SampleColumns, seriesWindow } from '@/lib/cluster/bounded-series';
import { keepUnchanged } from '@/lib/api/keep-unchanged';
import { findingRefs } from '@/lib/history/finding-lifecycle';
import type { ObjectRef } from '@/lib/k8s/types';

function digestOf(value: unknown): string {
  return createHash('sha1').update(JSON.stringify(value)).digest('base64');
}

const sharedValues = new Map<string, WeakRef<object>>();
const forget = new FinalizationRegistry<string>((key) => {
  if (sharedValues.get(key)?.deref() === undefined) sharedValues.delete(key);
});

/**
 * One object for equal JSON values published by different clusters: the update recommendations of clusters on the
 * same version and channel are the same tens of kilobytes. Published health is never mutated, so sharing is safe;
 * an entry lives as long as some cluster still publishes its value.
 */
export function sharedValue<T extends object>(value: T, key = digestOf(value)): T {
  const hit = sharedValues.get(key)?.deref();
  if (hit !== undefined) return hit as T;
  sharedValues.set(key, new WeakRef(value));
  forget.register(value, key);
  return value;
}

/** True when a finding of `health` has `ref` as its subject or the object of its evidence. */
export function findingsCite(health: ClusterHealthDto, ref: ObjectRef): boolean {
  return health.findings.some((finding) =>
    findingRefs(finding).some(
      (cited) =>
        cited.kind === ref.kind && cited.name === ref.name && (cited.namespace ?? '') === (ref.namespace ?? ''),
    ),
  );
}

/**
 * What a fleet member last published: its health (compared by digest, not by a 50 KB string kept per cluster) and
 * its detectors' sample series in bounded columns. Engines and hosted views both publish through one.
 */
export class PublishedHealth {
  private current: ClusterHealthDto;
  /** The row of `current`, built once: the fleet list asks every member for its row several times a second. */
  private row: Readonly<ClusterSummaryDto> | undefined;
  private digest = '';
  private readonly samples = new Map<string, SampleColumns>();

  constructor(
    private readonly clusterId: string,
    initial: ClusterHealthDto,
  ) {
    this.current = initial;
  }

  health(): ClusterHealthDto {
    return this.current;
  }

  /** One fleet row, the same frozen object until the health changes. */
  summary(): ClusterSummaryDto {
    this.row ??= Object.freeze(summaryOf(this.current));
    return this.row;
  }

  /** Takes an assessment; returns its health message when the health changed, and a point per detector when `sample`. */
  update(assessment: Assessment, now: number, sample: boolean): StreamMessage[] {
    const messages: StreamMessage[] = [];
    // Recommendations hashed apart: the same digest then finds the copy other clusters share.
    const { updateRecommendations, ...rest } = assessment.health;
    const recommendations = updateRecommendations ? digestOf(updateRecommendations) : '';
    const digest = `${digestOf(rest)}${recommendations}`;
    if (digest !== this.digest) {
      this.row = undefined;
      // What did not change stays the object already held: a busy cluster publishes every few seconds, and a whole
      // new health each time would be hundreds of objects living just long enough to be promoted, then garbage for
      // a full collection. Only what changed is new.
      // The recommendations are the copy other clusters share, never a mix of the one before and the new one.
      const kept = keepUnchanged(this.current, {
        ...assessment.health,
        updateRecommendations: this.current.updateRecommendations,
      });
      this.current = {
        ...kept,
        updateRecommendations: updateRecommendations && sharedValue(updateRecommendations, recommendations),
      };
      this.digest = digest;
      messages.push({ type: 'health', clusterId: this.clusterId, health: this.current, summary: this.summary() });
    }
    if (!sample) return messages;
    for (const [detector, values] of Object.entries(assessment.samples)) {
      if (!values || Object.keys(values).length === 0) continue;
      const point = { t: now, values };
      let points = this.samples.get(detector);
      if (!points) {
        points = new SampleColumns(SERIES_CAPACITY);
        this.samples.set(detector, points);
      }
      points.append(point);
      messages.push({ type: 'samples', clusterId: this.clusterId, detector, points: [point] });
    }
    return messages;
  }

  /** Sample series and transitions between `from` and `to` (epoch ms, cluster time), ≤ `max` points each. */
  series(
    now: number,
    transitions: readonly TransitionDto[],
    from?: number,
    to?: number,
    max = SERIES_CAPACITY,
  ): ClusterSeriesDto {
    return seriesWindow({ clusterId: this.clusterId, now, samples: this.samples, transitions, from, to, max });
  }
}
