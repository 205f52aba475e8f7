/** One request being served right now. */
export interface ActiveRequest {
  method: string;
  path: string;
  query: string;
  /** Real time the request started (ISO 8601). */
  since: string;
}

/** Live and cumulative request counters of one API server (served at /__sim/stats). */
export class RequestStats {
  private nextId = 1;
  private readonly active = new Map<number, ActiveRequest>();
  private readonly counts: Record<string, number> = {};

  /** Marks a request as started; call the returned function when it ends. */
  begin(method: string, path: string, query: string): () => void {
    const id = this.nextId++;
    this.active.set(id, { method, path, query, since: new Date().toISOString() });
    return () => this.active.delete(id);
  }

  /** Counts a request by `<resource>:<verb>`. */
  count(resource: string, verb: string): void {
    const key = `${resource}:${verb}`;
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }

  /** A snapshot for /__sim/stats. */
  snapshot(): { activeRequests: ActiveRequest[]; requests: Record<string, number> } {
    return { activeRequests: [...this.active.values()], requests: { ...this.counts } };
  }
}
