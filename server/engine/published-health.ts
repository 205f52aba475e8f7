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

/**
 * What a fleet member last published: its health (compared by digest, not by a 50 KB string kept per cluster) and
 * its detectors' sample series in bounded columns. Engines and hosted views both publish through one.
 */
export class PublishedHealth {
  private current: ClusterHealthDto;
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

  /** One fleet row. */
  summary(): ClusterSummaryDto {
    return summaryOf(this.current);
  }

  /** Takes an assessment; returns its health message when the health changed, and a point per detector when `sample`. */
  update(assessment: Assessment, now: number, sample: boolean): StreamMessage[] {
    const messages: StreamMessage[] = [];
    const digest = createHash('sha1').update(JSON.stringify(assessment.health)).digest('base64');
    if (digest !== this.digest) {
      this.current = assessment.health;
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
