/**
 * The rooms of `server/` (its top-level folders, and `env.ts`) and the rooms each one imports directly. A room may
 * import what these reach, never back up: imports run from the tools and the edge down to the transport. Kept free
 * of imports and TypeScript-only syntax, as eslint.config.mjs loads it with Node's own type stripping and turns it
 * into lint rules; server/rooms.test.ts checks every import in the source against it and that it has no cycle.
 */
export const SERVER_ROOMS: Readonly<Record<string, readonly string[]>> = {
  /** Benchmarks: the simulator, a fleet, a must-gather, driven from the command line. */
  bench: ['cli', 'engine', 'kube', 'offline', 'simulator', 'testing', 'watch'],
  /** `npm start`, the demo, the offline CLI and the generators (deploy/acm's RBAC from deploy/openshift). */
  cli: ['offline', 'simulator', 'deploy', 'env'],
  /** Test support shared by tests of several rooms (tests themselves may import any room). */
  testing: ['auth', 'incidents', 'simulator', 'watch', 'db', 'env'],
  /** Must-gather analysis: uploads and server paths, for a viewer; frozen into incidents. */
  offline: ['auth', 'incidents', 'metrics', 'watch', 'http', 'env'],
  /** The edge: who is asking (sessions, tokens, the edge pipeline) and what they may see (visibility, route helper). */
  auth: ['engine', 'db', 'http', 'observability', 'env'],
  /** Durable incidents. */
  incidents: ['db', 'http', 'observability', 'env'],
  /** The fleet, one engine per cluster, hosted views, readiness. */
  engine: ['fleet-sources', 'history', 'metrics', 'kube', 'http', 'observability', 'env'],
  /** Where fleet members come from: a watched kubeconfig, an ACM/OCM hub (ClusterProfiles, ManagedClusters). */
  'fleet-sources': ['kube', 'watch', 'env'],
  /** Durable finding history: every finding's lifecycle, kept for the timeline and update durations. */
  history: ['incidents', 'db', 'observability', 'env'],
  /** Metric and alert sources per cluster. */
  metrics: ['kube', 'env'],
  /** The connection to one cluster (clock, reviews, the watches it runs). */
  kube: ['watch', 'env'],
  /** Reflectors and the Kubernetes transport. */
  watch: ['env'],
  /** The embedded API servers, OAuth and RBAC that tests, the demo and benchmarks talk to. */
  simulator: ['http'],
  /** HTTP plumbing with no knowledge of viewers or clusters: responses, bodies, the event stream, rate limits. */
  http: ['observability'],
  /** Databases: where they are, SQLite and PostgreSQL helpers. */
  db: ['env'],
  /** The service's own metrics, timed routes and shutdown. */
  observability: [],
  /** Rendered deploy manifests for their tests. */
  deploy: [],
  /** `server/env.ts`: the only reader of environment variables. */
  env: [],
};

/** Every room `room` may import: those it lists and, through them, those they reach (itself excluded). */
export function roomsBelow(room: string): string[] {
  const seen = new Set<string>();
  const visit = (from: string) => {
    for (const next of SERVER_ROOMS[from] ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      visit(next);
    }
  };
  visit(room);
  seen.delete(room);
  return [...seen].sort();
}
