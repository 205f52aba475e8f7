import 'server-only';
import type { FleetSource, MemberSpec, SourceStatus, WaitingMember } from '@/server/fleet-sources/fleet-source';
import { mergeMembers } from '@/server/fleet-sources/merge-members';
import { stopMetricsSources } from '@/server/metrics/sources';
import type { ClusterEngine } from './cluster-engine';
import { fleetPollScale, type EngineBuilder } from './fleet-build';
import { StagedStarts } from './staged-starts';

/** How often membership is recomputed without a source change (cluster IDs learnt from ClusterVersions join rows). */
const RECONCILE_MS = 5_000;

/**
 * The engines of the members the fleet's sources found, kept in step with the sources' live sets: a member added
 * gets an engine, a member gone or whose connection changed (its fingerprint) loses it, a member reached two ways
 * keeps one. Works on the fleet's engine map; engines put there by others are never touched.
 */
export class SourcedEngines {
  /** Engines built from a source's member, with the fingerprint of the connection they were built with. */
  private readonly built = new Map<string, string>();
  private readonly sources: FleetSource[] = [];
  private readonly sets = new Map<FleetSource, readonly MemberSpec[]>();
  private waitingMembers: WaitingMember[] = [];
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly starts = new StagedStarts<ClusterEngine>();

  constructor(
    private readonly engines: Map<string, ClusterEngine>,
    private readonly build: EngineBuilder,
    private readonly onChange: (added: readonly ClusterEngine[]) => void,
  ) {}

  follow(sources: readonly FleetSource[]): void {
    for (const source of sources) {
      this.sources.push(source);
      this.sets.set(source, []);
      source.start((members) => {
        this.sets.set(source, members);
        this.reconcile();
      });
    }
    this.timer ??= setInterval(() => this.reconcile(), RECONCILE_MS);
    this.timer.unref?.();
  }

  reconcile(): void {
    if (this.stopped) return;
    const learned = new Map<string, string>();
    for (const engine of this.engines.values()) {
      const clusterID = engine.clusterID();
      if (clusterID) learned.set(engine.id, clusterID);
    }
    const plan = mergeMembers([...this.sets.values()], learned);
    const wanted = new Map(plan.connect.map((member) => [member.id, member]));
    let changed = false;
    for (const [id, fingerprint] of this.built) {
      if (wanted.get(id)?.fingerprint === fingerprint) continue;
      const gone = this.engines.get(id);
      if (gone) this.starts.remove(gone);
      gone?.stop();
      stopMetricsSources([id]);
      this.engines.delete(id);
      this.built.delete(id);
      changed = true;
    }
    const added: ClusterEngine[] = [];
    const pollScale = fleetPollScale(plan.connect.length);
    for (const member of plan.connect) {
      const discovery = {
        discoveredBy: member.discoveredBy,
        ...(member.reachability ? { reachability: member.reachability } : {}),
      };
      const existing = this.engines.get(member.id);
      if (existing) {
        existing.setDiscovery(discovery);
        continue;
      }
      const engine = this.build(member, pollScale);
      engine.setDiscovery(discovery);
      this.engines.set(member.id, engine);
      this.built.set(member.id, member.fingerprint);
      this.starts.add(engine);
      added.push(engine);
    }
    this.waitingMembers = plan.waiting;
    if (changed || added.length > 0) this.onChange(added);
  }

  /** Members found but not connectable, each with its reason. */
  waiting(): readonly WaitingMember[] {
    return this.waitingMembers;
  }

  statuses(): SourceStatus[] {
    return this.sources.map((source) => source.status());
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.starts.stop();
    for (const source of this.sources) source.stop();
  }
}
