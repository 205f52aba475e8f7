import { channelsFor, errataUrl, releaseImage } from './releases';

/** A release as the CVO lists it in status.availableUpdates / conditionalUpdates[].release. */
export interface ReleaseRef {
  version: string;
  image: string;
  url: string;
  channels: string[];
}

interface Risk {
  name: string;
  message: string;
  url: string;
  matchingRules: Record<string, unknown>[];
}

/** One status.conditionalUpdates entry with the CVO's evaluated `Recommended` condition. */
export interface ConditionalUpdate {
  release: ReleaseRef;
  risks: Risk[];
  conditions: { type: 'Recommended'; status: 'True' | 'False'; reason: string; message: string; lastTransitionTime: string }[];
}

/**
 * Risks as the update service declares them (text, links and matching rules copied from real ClusterVersions:
 * server/fixtures/oc-upgrade/recommend/examples/4.12.16-longest-*-cv.yaml).
 */
const AMD_19H_FIRMWARE: Risk = {
  name: 'AMD19hFirmware',
  message: 'Nodes with AMD 19h family CPUs  (Bergamo, Milan, etc.) can fail to boot after applying operating system updates.',
  url: 'https://issues.redhat.com/browse/COS-2747',
  matchingRules: [{
    type: 'PromQL',
    promql: { promql: 'topk(1, group by (vendor, family) (node_cpu_info{_id="",vendor="AuthenticAMD",family="25"}) or 0 * group by (vendor, family) (node_cpu_info{_id=""}) )' },
  }],
};
const HIGH_NODE_STATUS_REPORT_FREQUENCY: Risk = {
  name: 'HighNodeStatusReportFrequency',
  message: 'An unintended reversion to the default kubelet nodeStatusReportFrequency can cause significant load on the control plane.',
  url: 'https://issues.redhat.com/browse/MCO-1094',
  matchingRules: [{ type: 'Always' }],
};

/** The CVO's message when no risk of a conditional update matches the cluster. */
const NOT_EXPOSED = 'The update is recommended, because none of the conditional update risks apply to this cluster.';

function release(version: string): ReleaseRef {
  return { channels: channelsFor(version), image: releaseImage(version), url: errataUrl(version), version };
}

/**
 * What the update service offers a cluster at `version` and the CVO evaluated: the next three patches (the middle
 * one conditional on the AMD 19h firmware risk, whose PromQL rule does not match these Intel nodes, so it is
 * recommended and also listed as available), and the first two patches of the next minor, conditional on
 * HighNodeStatusReportFrequency (an `Always` rule, so `Recommended=False` with the risk's name as reason).
 */
export function updateGraphFor(version: string, evaluatedAt: string): { availableUpdates: ReleaseRef[]; conditionalUpdates: ConditionalUpdate[] } {
  const [major, minor, patch] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (![major, minor, patch].every(Number.isFinite)) return { availableUpdates: [], conditionalUpdates: [] };
  const patches = [1, 2, 3].map((n) => release(`${major}.${minor}.${patch + n}`));
  const nextMinor = [4, 3].map((p) => release(`${major}.${minor + 1}.${p}`));
  const conditionalUpdates: ConditionalUpdate[] = [
    ...nextMinor.map((target) => ({
      release: target,
      risks: [HIGH_NODE_STATUS_REPORT_FREQUENCY],
      conditions: [{
        type: 'Recommended' as const, status: 'False' as const, reason: HIGH_NODE_STATUS_REPORT_FREQUENCY.name,
        message: `${HIGH_NODE_STATUS_REPORT_FREQUENCY.message} ${HIGH_NODE_STATUS_REPORT_FREQUENCY.url}`, lastTransitionTime: evaluatedAt,
      }],
    })),
    {
      release: patches[1],
      risks: [AMD_19H_FIRMWARE],
      conditions: [{ type: 'Recommended', status: 'True', reason: 'AsExpected', message: NOT_EXPOSED, lastTransitionTime: evaluatedAt }],
    },
  ];
  return { availableUpdates: [patches[2], patches[1], patches[0]], conditionalUpdates };
}
