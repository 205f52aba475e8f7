import 'server-only';
import type { FindingDto } from '@/lib/api/dto';
import {
  nextFindingState,
  observeFinding,
  type FindingObservation,
  type FindingState,
} from '@/lib/history/finding-lifecycle';
import type { FindingHistoryRepository } from './finding-history-repository';
import { recordFinding } from './record-finding';

/** Options of a {@link FindingRecorder}. */
export interface FindingRecorderOptions {
  /** Called once the open findings were read back (the engine re-evaluates to publish their onsets). */
  onLoaded?: () => void;
  /** Told of a failed read or write (default: a line on stderr, once per kind of failure until one succeeds). */
  report?: (error: unknown) => void;
}

function defaultReporter(clusterId: string): (error: unknown) => void {
  let last = '';
  return (error) => {
    const message = String(error);
    if (message === last) return;
    last = message;
    console.warn(`[history] ${clusterId}: ${message}`);
  };
}

/**
 * One cluster's finding history as an engine writes it. The engine calls {@link observe} with every evaluation; the
 * recorder compares with what it knows is stored (read back on start), queues only the changes, and writes them in
 * order with a compare-and-set ({@link recordFinding}), so a change another replica already stored is not stored
 * again. It also gives open findings their stored opening as onset, so `since` survives a restart.
 */
export class FindingRecorder {
  private readonly known = new Map<string, FindingState>();
  private loaded = false;
  private stopped = false;
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;
  private readonly report: (error: unknown) => void;

  constructor(
    private readonly repository: FindingHistoryRepository,
    readonly clusterId: string,
    private readonly options: FindingRecorderOptions = {},
  ) {
    this.report = options.report ?? defaultReporter(clusterId);
  }

  /** Reads the cluster's open findings back (retrying until it can), then starts recording. */
  start(): void {
    const load = async (): Promise<void> => {
      try {
        for (const state of await this.repository.openStates(this.clusterId)) this.known.set(state.findingId, state);
        this.loaded = true;
        this.options.onLoaded?.();
      } catch (error) {
        this.report(error);
        if (!this.stopped) setTimeout(() => void load(), 5_000).unref?.();
      }
    };
    void load();
  }

  stop(): void {
    this.stopped = true;
  }

  /** True once the open findings were read back. */
  ready(): boolean {
    return this.loaded;
  }

  /**
   * Takes one evaluation's findings at `now` (cluster time, epoch ms). `complete`: every source answered, so a
   * finding absent now is resolved (an evaluation on partial data resolves nothing). Returns the findings with the
   * stored opening as onset where it is earlier than the detector's.
   */
  observe(findings: readonly FindingDto[], now: number, complete: boolean): FindingDto[] {
    if (!this.loaded || this.stopped) return [...findings];
    const seen = new Set<string>();
    for (const finding of findings) {
      seen.add(finding.id);
      this.consider(finding.id, observeFinding(finding), now);
    }
    if (complete) {
      for (const [id, state] of this.known)
        if (state.resolvedAt === null && !seen.has(id)) this.consider(id, undefined, now);
    }
    return findings.map((finding) => {
      const state = this.known.get(finding.id);
      if (!finding.since || !state || state.resolvedAt !== null) return finding;
      return state.openedAt < Date.parse(finding.since)
        ? { ...finding, since: new Date(state.openedAt).toISOString() }
        : finding;
    });
  }

  /** Settles once every queued write finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending > 0) await this.queue;
  }

  private consider(findingId: string, observed: FindingObservation | undefined, now: number): void {
    const known = this.known.get(findingId);
    const transition = nextFindingState(this.clusterId, known, observed, now);
    if (!transition) return;
    // Assume the write succeeds, so the next evaluation does not queue it again; the stored state replaces it after.
    this.known.set(findingId, transition.state);
    this.pending += 1;
    this.queue = this.queue.then(async () => {
      try {
        const stored = await recordFinding(this.repository, this.clusterId, findingId, observed, now);
        if (stored) this.known.set(findingId, stored);
        else this.known.delete(findingId);
      } catch (error) {
        // Forget what is assumed: the next evaluation reads the stored state again and retries.
        this.known.delete(findingId);
        this.report(error);
      } finally {
        this.pending -= 1;
      }
    });
  }
}
