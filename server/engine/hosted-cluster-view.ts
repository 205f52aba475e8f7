import 'server-only';
import type { ClusterHealthDto, ClusterSeriesDto, ClusterSummaryDto, StreamMessage } from '@/lib/api/dto';
import type { Snapshot } from '@/lib/health/types';
import type { Assessment } from '@/lib/cluster/assess-cluster';
import { PublishedHealth } from './published-health';

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
  private readonly published: PublishedHealth;
  private part: Snapshot = { objects: {}, transitions: [], logs: [], probes: [] };

  constructor(
    readonly id: string,
    readonly name: string,
    readonly managedBy: string,
    private readonly owner: HostedViewOwner,
    /** `spec.clusterID` of the HostedCluster (joins the hosted cluster's own context). */
    public clusterID: string | undefined,
  ) {
    this.published = new PublishedHealth(id, {
      cluster: {
        id,
        name,
        role: 'hosted',
        managedBy,
        discoveredBy: { kind: 'management', name: managedBy },
        version: null,
        desiredVersion: null,
        channel: null,
        history: [],
      },
      findings: [],
      updateProgress: null,
      updateRecommendations: null,
      sources: [],
    });
  }

  /** Takes a new assessment; returns the messages to publish (none when nothing changed). */
  apply(assessment: Assessment, part: Snapshot, now: number, sample: boolean): StreamMessage[] {
    this.part = part;
    return this.published.update(assessment, now, sample);
  }

  health(): ClusterHealthDto {
    return this.published.health();
  }

  summary(): ClusterSummaryDto {
    return this.published.summary();
  }

  snapshot(): Snapshot {
    return this.part;
  }

  now(): number {
    return this.owner.now();
  }

  series(from?: number, to?: number, max?: number): ClusterSeriesDto {
    return this.published.series(this.owner.now(), this.part.transitions, from, to, max);
  }

  /** Messages about this hosted cluster only. */
  subscribe(listener: (message: StreamMessage) => void): () => void {
    return this.owner.subscribe((message) => {
      if (message.clusterId === this.id) listener(message);
    });
  }
}
