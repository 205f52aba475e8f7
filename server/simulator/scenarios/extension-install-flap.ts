import type { Scenario, ScenarioContext } from '../types';
import { installBaseCluster } from '../controllers/base-cluster';
import { FailingInstallReconciler } from '../controllers/operator-controller';
import { historyEntry } from '../objects/cluster-version';
import { OPERATOR_CONTROLLER_NAMESPACE } from '../objects/olm';
import { HOUR, MINUTE, SECOND } from '../objects/time';
import { XSS_MESSAGE, XSS_PROBE_EXTENSION, buildXssProbeExtension } from '../objects/xss-corpus';

/** Version of the extension-install-flap cluster. */
export const FLAP_CLUSTER_VERSION = '4.18.12';
/** The ClusterExtension that never settles. */
export const FLAP_EXTENSION = 'argocd-operator';
/** Its install namespace. */
export const FLAP_NAMESPACE = 'argocd';
/** When the admin creates the ClusterExtension. */
export const FLAP_CREATED_AT_MS = 30 * SECOND;
/** When operator-controller makes the first install attempt. */
export const FLAP_FIRST_ATTEMPT_AT_MS = FLAP_CREATED_AT_MS + 2 * SECOND;
/** The real failure: a cluster-scoped object left over from an earlier install that Helm refuses to adopt. */
export const FLAP_ROOT_CAUSE =
  'failed to install release: rendered manifests contain a resource that already exists. Unable to continue with install: ' +
  'ClusterRole "argocd-operator-metrics-reader" in namespace "" exists and cannot be imported into the current release: ' +
  'invalid ownership metadata; label validation error: missing key "app.kubernetes.io/managed-by": must be set to "Helm"; ' +
  'annotation validation error: missing key "meta.helm.sh/release-name": must be set to "argocd-operator"; ' +
  'annotation validation error: missing key "meta.helm.sh/release-namespace": must be set to "argocd"';
/** What the immediate requeues hit while the rolled-back release's namespace is still terminating. */
export const FLAP_TRANSIENT_MESSAGES = [
  'failed to get release state using server-side dry-run: serviceaccounts "argocd-operator-controller-manager" is forbidden: unable to create new content in namespace argocd because it is being terminated',
  'failed to get release state using server-side dry-run: configmaps "argocd-operator-manager-config" is forbidden: unable to create new content in namespace argocd because it is being terminated',
] as const;

/**
 * `extension-install-flap`: a ClusterExtension whose install fails on a real conflict; the provisioner rolls back and
 * the status change requeues at once, so the next two attempts fail on transient cleanup. Three status writes per
 * backoff step, exponential backoff between steps; Progressing always ends on the transient message.
 */
export const extensionInstallFlapScenario: Scenario = {
  name: 'extension-install-flap',
  title: 'ClusterExtension install that never settles',
  description:
    'argocd-operator fails to install (ClusterRole already exists), rolls back, and each immediate requeue fails on ' +
    '"namespace argocd is being terminated"; the condition shows the transient error, not the root cause.',
  failureAtMs: 2 * MINUTE,
  start(context) {
    const start = context.clock.now();
    installBaseCluster(context, {
      version: FLAP_CLUSTER_VERSION,
      history: [
        historyEntry(FLAP_CLUSTER_VERSION, start - 9 * 24 * HOUR, start - 9 * 24 * HOUR + 71 * MINUTE),
        historyEntry('4.17.24', start - 50 * 24 * HOUR, start - 50 * 24 * HOUR + 66 * MINUTE),
      ],
      catalogd: { replicas: 2, pdb: { minAvailable: 1 }, nonLeaderServes: true },
      namespaces: [FLAP_NAMESPACE],
    });
    context.clock.setTimeout(() => {
      context.as('kubectl-client-side-apply').create('clusterextensions', {
        apiVersion: 'olm.operatorframework.io/v1',
        kind: 'ClusterExtension',
        metadata: { name: FLAP_EXTENSION },
        spec: {
          namespace: FLAP_NAMESPACE,
          serviceAccount: { name: 'argocd-installer' },
          source: {
            sourceType: 'Catalog',
            catalog: {
              packageName: 'argocd-operator',
              channels: ['alpha'],
              version: '0.13.0',
              upgradeConstraintPolicy: 'CatalogProvided',
            },
          },
        },
      });
    }, FLAP_CREATED_AT_MS);
    const story = { extension: FLAP_EXTENSION, rootCause: FLAP_ROOT_CAUSE, transient: [...FLAP_TRANSIENT_MESSAGES] };
    new FailingInstallReconciler(context, story, operatorControllerPod(context)).start(FLAP_FIRST_ATTEMPT_AT_MS);
  },
};

function operatorControllerPod(context: ScenarioContext): string | undefined {
  return context.client.list('pods', { namespace: OPERATOR_CONTROLLER_NAMESPACE })[0]?.metadata.name;
}

/**
 * A second, hostile extension for tests of the dashboard (never in the fleet the product shows by default): its
 * labels, annotations, condition messages and log lines carry an XSS corpus, so the UI is exercised with text that
 * must stay text. Call after the story started (it installs into its namespace).
 */
export function installXssProbe(context: ScenarioContext): void {
  context.clock.setTimeout(
    () => {
      context.as('kubectl-client-side-apply').create('clusterextensions', buildXssProbeExtension(FLAP_NAMESPACE));
    },
    FLAP_CREATED_AT_MS + 5 * SECOND,
  );
  const probe = { extension: XSS_PROBE_EXTENSION, rootCause: XSS_MESSAGE, transient: [`retry: ${XSS_MESSAGE}`] };
  new FailingInstallReconciler(context, probe, operatorControllerPod(context)).start(
    FLAP_FIRST_ATTEMPT_AT_MS + 5 * SECOND,
  );
}

/** `extension-install-flap` with the XSS probe extension beside the story, for tests that opt in. */
export const extensionInstallFlapWithXssProbe: Scenario = {
  ...extensionInstallFlapScenario,
  start(context) {
    extensionInstallFlapScenario.start(context);
    installXssProbe(context);
  },
};
