import 'server-only';
import type { ClusterHealthDto, ClusterSeriesDto, ClusterSummaryDto, StreamMessage } from '@/lib/api/dto';
import type { Snapshot } from '@/lib/health/types';
import type { Assessment } from '@/lib/cluster/assess-cluster';
import { summaryOf } from '@/lib/cluster/join-hosted';
import { SERIES_CAPACITY, SampleColumns, seriesWindow } from '@/lib/cluster/bounded-series';
import { createHash } from 'node:crypto';


/** What a hosted view borrows from the engine of its management cluster. */
export interface HostedViewOwner {
  now(): number;
  subscribe(listener: (message: StreamMessage) => void): () => void;
}

/**
 * A hosted cluster as its management cluster's engine sees it: the health assessed on its part of the management
 * snapshot, its own sample series, and the same read API as a ClusterEngine (health, summary, series, snapshot),
 * so routes, the stream and incidents treat it as any other fleet member.
 */
export class HostedClusterView {
  private current: ClusterHealthDto;
  /** Digest of the last published health: comparing digests, not 50 KB strings kept per cluster. */
  private currentDigest = '';
  private part: Snapshot = { objects: {}, transitions: [], logs: [], probes: [] };
  private readonly samples = new Map<string, SampleColumns>();

  constructor(
    readonly id: string,
    readonly name: string,
    readonly managedBy: string,
    private readonly owner: HostedViewOwner,
    /** `spec.clusterID` of the HostedCluster (joins the hosted cluster's own context). */
    public clusterID: string | undefined,
  ) {
    this.current = {
      cluster: { id, name, role: 'hosted', managedBy, version: null, desiredVersion: null, channel: null, history: [] },
      findings: [], updateProgress: null, updateRecommendations: null, sources: [],
    };
  }

  /** Takes a new assessment; returns the messages to publish (none when nothing changed). */
  apply(assessment: Assessment, part: Snapshot, now: number, sample: boolean): StreamMessage[] {
    this.part = part;
    const messages: StreamMessage[] = [];
    const json = JSON.stringify(assessment.health);
    const digest = createHash('sha1').update(json).digest('base64');
    if (digest !== this.currentDigest) {
      this.current = assessment.health;
      this.currentDigest = digest;
      messages.push({ type: 'health', clusterId: this.id, health: this.current, summary: this.summary() });
    }
    if (sample) {
      for (const [detector, values] of Object.entries(assessment.samples)) {
        if (!values || Object.keys(values).length === 0) continue;
        const point = { t: now, values };
        let points = this.samples.get(detector);
        if (!points) {
          points = new SampleColumns(SERIES_CAPACITY);
          this.samples.set(detector, points);
        }
        points.append(point);
        messages.push({ type: 'samples', clusterId: this.id, detector, points: [point] });
      }
    }
    return messages;
  }

  health(): ClusterHealthDto {
    return this.current;
  }

  summary(): ClusterSummaryDto {
    return summaryOf(this.current);
  }

  snapshot(): Snapshot {
    return this.part;
  }

  now(): number {
    return this.owner.now();
  }

  series(from?: number, to?: number, max = SERIES_CAPACITY): ClusterSeriesDto {
    return seriesWindow({ clusterId: this.id, now: this.owner.now(), samples: this.samples, transitions: this.part.transitions, from, to, max });
  }


  /** Messages about this hosted cluster only. */
  subscribe(listener: (message: StreamMessage) => void): () => void {
    return this.owner.subscribe((message) => {
      if (message.clusterId === this.id) listener(message);
    });
  }
}
