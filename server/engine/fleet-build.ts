import 'server-only';
import { KubeConfig } from '@kubernetes/client-node';
import type { ConnectableMember } from '@/server/fleet-sources/fleet-source';
import { createEndpointConnection, createKubeConnection } from '@/server/kube/kube-connection';
import { registerMetricsSource } from '@/server/metrics/sources';
import { ClusterEngine } from './cluster-engine';
import type { FindingHistoryRepository } from '@/server/history/finding-history-repository';

/** Builds the engine of a member a source found. */
export type EngineBuilder = (member: ConnectableMember, pollScale: number) => ClusterEngine;

/**
 * The engine of a member: its connection (a kubeconfig context, or an endpoint with rotating credentials), recording
 * findings in `history` when given.
 */
export function buildEngine(
  member: ConnectableMember,
  pollScale: number,
  history?: FindingHistoryRepository,
): ClusterEngine {
  const { connection: how } = member;
  const connection =
    how.kind === 'kubeconfig'
      ? createKubeConnection(how.path, how.context, {}, how.credentials)
      : createEndpointConnection(how.endpoint, how.credentials);
  // Scrapes and alert polls run with the cluster's active tier (updating, a finding, a viewer).
  const metrics = registerMetricsSource(member.id, connection, pollScale);
  return new ClusterEngine({
    id: member.id,
    name: member.name,
    connection,
    latency: () => metrics.latency(),
    alerts: () => metrics.alerts(),
    metrics,
    pollScale,
    discoveredBy: member.discoveredBy,
    history,
  });
}

/** Thrown when the configured kubeconfig cannot be used. */
export class FleetConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FleetConfigError';
  }
}

/** Fails fast on a kubeconfig that cannot start a fleet (later edits that break it keep the last good set). */
export function checkKubeconfig(path: string, contexts?: readonly string[]): void {
  const kubeConfig = new KubeConfig();
  try {
    kubeConfig.loadFromFile(path);
  } catch (error) {
    throw new FleetConfigError(`cannot read kubeconfig ${path}: ${(error as Error).message}`);
  }
  const available = kubeConfig.getContexts().map((context) => context.name);
  const chosen = contexts && contexts.length > 0 ? contexts : available;
  const unknown = chosen.filter((name) => !available.includes(name));
  if (unknown.length > 0) throw new FleetConfigError(`kubeconfig ${path} has no context named ${unknown.join(', ')}`);
  if (chosen.length === 0) throw new FleetConfigError(`kubeconfig ${path} has no contexts`);
}

/**
 * How much slower than for one cluster a fleet's periodic work runs: re-evaluations, log polls, metric scrapes and
 * alert polls. Events still re-evaluate a cluster at once; the periodic work only ages time-based rules and
 * refreshes corroboration. Up to 200 clusters nothing stretches; beyond, the fleet's request and evaluation rate
 * stays that of 200 (at 500 clusters the single-cluster periods took the whole core and changes queued behind them).
 */
export function fleetPollScale(clusters: number): number {
  return Math.max(1, clusters / 200);
}
