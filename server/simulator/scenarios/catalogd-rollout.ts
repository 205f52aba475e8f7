import type { Scenario } from '../types';
import { namespaceViewer } from '../access/access-seed';
import { installBaseCluster } from '../controllers/base-cluster';
import { templateHashOf } from '../controllers/deployment-controller';
import { drainNode, setSchedulable } from '../controllers/node-drain';
import { historyEntry } from '../objects/cluster-version';
import { CATALOGD_NAMESPACE } from '../objects/olm';
import { componentImage } from '../objects/releases';
import { HOUR, MINUTE, SECOND } from '../objects/time';

/** Version of the catalogd-rollout cluster. */
export const CATALOGD_CLUSTER_VERSION = '4.18.12';
/** When cluster-olm-operator rolls a new catalogd template (1 replica: no ready pod until the new one is up). */
export const CATALOGD_ROLLOUT_AT_MS = 2 * MINUTE;
/** How long the new catalogd pod takes to become Ready (image pull, cache unpack). */
export const CATALOGD_NEW_POD_READY_AFTER_MS = 150 * SECOND;
/** Window with zero ready catalogd replicas and `olm` Available=False. */
export const CATALOGD_GAP_WINDOW = {
  fromMs: CATALOGD_ROLLOUT_AT_MS + 5 * SECOND,
  toMs: CATALOGD_ROLLOUT_AT_MS + CATALOGD_NEW_POD_READY_AFTER_MS,
} as const;
/** When the node running catalogd is drained; the eviction is refused (PDB minAvailable 1, disruptionsAllowed 0). */
export const CATALOGD_DRAIN_AT_MS = 6 * MINUTE;
/** Window in which the drain is blocked and the node stays cordoned. */
export const CATALOGD_DRAIN_BLOCKED_WINDOW = { fromMs: CATALOGD_DRAIN_AT_MS + 10 * SECOND, toMs: 75 * MINUTE } as const;
/**
 * When cluster-olm-operator manifests shipping catalogd at 2 replicas are applied (a hand scale would be reverted);
 * the drain then completes and a non-leader replica answers 404.
 */
export const CATALOGD_SCALED_AT_MS = 75 * MINUTE;
/** By then both replicas are Ready (leader 200, non-leader 404) and the drained node is empty. */
export const CATALOGD_SETTLED_BY_MS = CATALOGD_SCALED_AT_MS + 8 * MINUTE;
/** When the admin uncordons the drained node. */
export const CATALOGD_UNCORDONED_AT_MS = 90 * MINUTE;

/**
 * `catalogd-rollout`: catalogd at one replica behind a minAvailable: 1 PDB. A template rollout leaves no ready pod
 * (olm Available=False), a drain of its node is refused (disruptionsAllowed 0) and the node stays cordoned for an
 * hour, until cluster-olm-operator manifests with two catalogd replicas are applied (scaling by hand would be
 * reverted by the operator): the drain completes, and the non-leader replica serves 404.
 */
export const catalogdRolloutScenario: Scenario = {
  name: 'catalogd-rollout',
  title: 'catalogd at one replica: rollout gap and a blocked drain',
  description:
    'catalogd-controller-manager runs 1 replica with a minAvailable: 1 PDB: a rollout leaves 0 ready pods (olm ' +
    'Available=False), a node drain is blocked for an hour; scaled to 2 replicas, the non-leader answers 404.',
  failureAtMs: CATALOGD_DRAIN_AT_MS + 30 * SECOND,
  start(context) {
    const start = context.clock.now();
    let newTemplateHash = '';
    const base = installBaseCluster(context, {
      version: CATALOGD_CLUSTER_VERSION,
      history: [
        historyEntry(CATALOGD_CLUSTER_VERSION, start - 9 * 24 * HOUR, start - 9 * 24 * HOUR + 71 * MINUTE),
        historyEntry('4.17.24', start - 50 * 24 * HOUR, start - 50 * 24 * HOUR + 66 * MINUTE),
      ],
      catalogd: {
        replicas: 1,
        pdb: { minAvailable: 1 },
        strategy: { maxSurge: 0, maxUnavailable: 1 },
        readyAfterMs: (hash) => (hash === newTemplateHash ? CATALOGD_NEW_POD_READY_AFTER_MS : 45 * SECOND),
        nodeOrder: (nodes) => [nodes[1], nodes[2], nodes[0]],
      },
      operatorController: { replicas: 2, pdb: { minAvailable: 1 } },
    });
    const drained = base.nodes.master[1];
    // The catalog team may look at its own namespace here (and nowhere else in the fleet).
    context.as('openshift-apiserver').create('rolebindings', namespaceViewer(CATALOGD_NAMESPACE, 'catalog-team'));

    const olm = base.olm;
    if (!olm) throw new Error(`catalogd-rollout needs a release that runs OLMv1, not ${CATALOGD_CLUSTER_VERSION}`);
    // cluster-olm-operator rolls catalogd to a new image: a change of its manifests, which it applies itself
    context.clock.setTimeout(() => {
      const updated = olm.applyManifest('catalogd', (deployment) => {
        const spec = deployment.spec as { template: { spec: { containers: { name: string; image: string }[] } } };
        const manager = spec.template.spec.containers.find((container) => container.name === 'manager');
        if (manager) manager.image = componentImage('olm-catalogd', '4.18.13');
        return deployment;
      });
      if (updated) newTemplateHash = templateHashOf(updated.spec as Parameters<typeof templateHashOf>[0]);
    }, CATALOGD_ROLLOUT_AT_MS);

    context.clock.setTimeout(() => {
      drainNode(context, drained, { manager: 'oc', expectedFor: base.expectedFor, retryMs: 10 * SECOND });
    }, CATALOGD_DRAIN_AT_MS);

    // The fix that sticks: cluster-olm-operator manifests that ship catalogd with two replicas. A hand `oc scale`
    // would be put back to one replica by the operator at its next sync.
    context.clock.setTimeout(() => {
      olm.applyManifest('catalogd', (deployment) => {
        (deployment.spec as { replicas: number }).replicas = 2;
        return deployment;
      });
    }, CATALOGD_SCALED_AT_MS);

    context.clock.setTimeout(() => setSchedulable(context, drained, true, 'oc'), CATALOGD_UNCORDONED_AT_MS);
  },
};
