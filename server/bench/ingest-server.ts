/**
 * Child process of the ingest benchmark: an embedded `steady` cluster plus N realistic pods, served over HTTPS,
 * driven over IPC (pod churn at a given rate, FeatureGate flips that make a finding appear and clear).
 * Running it in its own process keeps the server's CPU out of the measured client's event loop.
 */
import { serveCluster } from '@/server/simulator/api-server';
import { createSimulatedCluster, runScenario } from '@/server/simulator/core';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import type { KubeObject } from '@/lib/k8s/types';
import { realisticPod } from './pod-generator';

type Command = { type: 'churn'; rate: number; seconds: number } | { type: 'flip'; drop: boolean } | { type: 'exit' };

async function main(): Promise<void> {
  const pods = Number(process.env.INGEST_PODS ?? 50_000);
  const cluster = createSimulatedCluster({ seed: 7, historyLimit: 200_000 });
  runScenario(cluster, SCENARIOS.steady!);
  cluster.clock.advance(60_000);
  for (let index = 0; index < pods; index += 1) cluster.store.importObject('pods', realisticPod(index));
  const served = await serveCluster(cluster, { bookmarkIntervalMs: 60_000 });
  const all = cluster.store.list('pods').map((entry) => entry.object);
  const featureGate = cluster.client.get('featuregates', 'cluster') as KubeObject;
  const fullGates = structuredClone((featureGate.status as { featureGates: unknown[] }).featureGates);
  let churned = 0;

  process.on('message', (command: Command) => {
    if (command.type === 'exit') {
      void served.close().then(() => process.exit(0));
    } else if (command.type === 'flip') {
      const gates = command.drop ? fullGates.slice(0, 1) : fullGates;
      const current = cluster.client.get('featuregates', 'cluster') as KubeObject;
      cluster
        .as('cluster-config-operator')
        .updateStatus('featuregates', { ...current, status: { ...(current.status as object), featureGates: gates } });
      process.send?.({ type: 'flipped', at: Date.now(), drop: command.drop });
    } else {
      // Catch up to the target rate on every tick: a late timer must not lower the rate the client is offered.
      const started = Date.now();
      const deadline = started + command.seconds * 1_000;
      let sent = 0;
      const tick = () => {
        const now = Date.now();
        const due =
          Math.min(Math.floor(((Math.min(now, deadline) - started) / 1_000) * command.rate), sent + command.rate / 10) -
          sent;
        const at = String(now);
        for (let i = 0; i < due; i += 1) {
          const pod = all[churned % all.length];
          churned += 1;
          // A label, not an annotation: the watch layer's pod projection keeps labels only.
          cluster.store.importObject('pods', {
            ...pod,
            metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, 'bench-produced-at': at } },
          });
        }
        sent += Math.max(0, due);
        if (now < deadline) setTimeout(tick, 5);
        else process.send?.({ type: 'churned', events: churned });
      };
      tick();
    }
  });
  process.send?.({ type: 'ready', kubeconfig: served.kubeconfig('reader'), pods });
}

void main();
