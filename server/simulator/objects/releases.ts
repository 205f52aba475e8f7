import { digestOf } from './ids';

/** The release image repository OpenShift publishes to. */
export const RELEASE_REPOSITORY = 'quay.io/openshift-release-dev/ocp-release';

/** `4.16.9` → `4.16`. */
export function minorOf(version: string): string {
  const [major, minor] = version.split('.');
  return `${major}.${minor}`;
}

/** The pull spec by digest of a release, as ClusterVersion history records it. */
export function releaseImage(version: string): string {
  return `${RELEASE_REPOSITORY}@sha256:${digestOf(`ocp-release:${version}-x86_64`)}`;
}

/** An image of a payload component (`ocp-v4.0-art-dev@sha256:...`), stable per component and release. */
export function componentImage(component: string, version: string): string {
  return `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${digestOf(`${component}:${version}`)}`;
}

const KUBERNETES_BY_MINOR: Record<string, string> = {
  '4.12': 'v1.25.16+306a47e',
  '4.13': 'v1.26.15+4818370',
  '4.14': 'v1.27.16+03a907c',
  '4.15': 'v1.28.13+2ca1a23',
  '4.16': 'v1.29.8+f10c92d',
  '4.17': 'v1.30.7+00c2c54',
  '4.18': 'v1.31.7+1a2b6b9',
};

/** Kubelet version the nodes of a release run. */
export function kubeletVersion(version: string): string {
  return KUBERNETES_BY_MINOR[minorOf(version)] ?? 'v1.31.7+1a2b6b9';
}

const RHCOS_BY_MINOR: Record<string, string> = {
  '4.12': '412.86.202402272018-0',
  '4.13': '413.92.202405201056-0',
  '4.14': '414.92.202407091253-0',
  '4.15': '415.92.202408100433-0',
  '4.16': '416.94.202408260940-0',
  '4.17': '417.94.202410211619-0',
  '4.18': '418.94.202504080525-0',
};

/** The RHCOS osImage string nodes of a release report. */
export function osImage(version: string): string {
  const build = RHCOS_BY_MINOR[minorOf(version)] ?? '418.94.202504080525-0';
  return `Red Hat Enterprise Linux CoreOS ${build}`;
}

/**
 * Capabilities known to each release, in the order of the ClusterVersion CRD enum
 * (server/fixtures/openshift-api/capability-enums.json).
 */
const CAPABILITIES_BY_MINOR: Record<string, string[]> = (() => {
  const base411 = ['openshift-samples', 'baremetal', 'marketplace'];
  const base412 = [...base411, 'Console', 'Insights', 'Storage', 'CSISnapshot'];
  const base413 = [...base412, 'NodeTuning'];
  const base414 = [...base413, 'MachineAPI', 'Build', 'DeploymentConfig', 'ImageRegistry'];
  const base415 = [...base414, 'OperatorLifecycleManager', 'CloudCredential'];
  const base416 = [...base415, 'Ingress', 'CloudControllerManager'];
  const base418 = [...base416, 'OperatorLifecycleManagerV1'];
  return {
    '4.11': base411,
    '4.12': base412,
    '4.13': base413,
    '4.14': base414,
    '4.15': base415,
    '4.16': base416,
    '4.17': base416,
    '4.18': base418,
  };
})();

/** Capabilities a vCurrent cluster at `version` has enabled, sorted as the CVO writes them. */
export function capabilitiesFor(version: string): string[] {
  const list = CAPABILITIES_BY_MINOR[minorOf(version)] ?? CAPABILITIES_BY_MINOR['4.18'];
  return [...list].sort();
}

/** The minor's update channel, e.g. `stable-4.16`. */
export function stableChannel(version: string): string {
  return `stable-${minorOf(version)}`;
}

/** Errata URL of a release (status.desired.url). */
export function errataUrl(version: string): string {
  const n = parseInt(digestOf(`errata:${version}`).slice(0, 4), 16) % 9000;
  return `https://access.redhat.com/errata/RHSA-2024:${1000 + n}`;
}
