import type { KubeObject } from '@/lib/k8s/types';
import { iso } from './time';
import { kubeletVersion, osImage } from './releases';

/** Role of a node: its MachineConfigPool. */
export type NodeRole = 'master' | 'worker';

const MASTER_IPS = ['10.0.17.12', '10.0.44.201', '10.0.80.9'];
const WORKER_IPS = ['10.0.23.145', '10.0.58.77', '10.0.95.190', '10.0.31.66', '10.0.70.18', '10.0.86.240'];
const ZONES = ['us-east-2a', 'us-east-2b', 'us-east-2c'];

/** Name of the `index`th node of a role (AWS private DNS names, stable across runs). */
export function nodeName(role: NodeRole, index: number): string {
  const ip = (role === 'master' ? MASTER_IPS : WORKER_IPS)[index];
  return `ip-${ip.replace(/\./g, '-')}.us-east-2.compute.internal`;
}

/** Inputs of a Node. */
export interface NodeInput {
  role: NodeRole;
  index: number;
  version: string;
  renderedConfig: string;
  createdMs: number;
  hosted?: boolean;
}

/** A Node with kubelet version, conditions and the machine-config daemon annotations of a settled node. */
export function buildNode(input: NodeInput): KubeObject {
  const name = nodeName(input.role, input.index);
  const ip = (input.role === 'master' ? MASTER_IPS : WORKER_IPS)[input.index];
  const zone = ZONES[input.index % ZONES.length];
  const since = iso(input.createdMs);
  const roleLabels: Record<string, string> =
    input.role === 'master'
      ? { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/master': '' }
      : { 'node-role.kubernetes.io/worker': '' };
  const annotations: Record<string, string> = input.hosted
    ? {}
    : {
        'machineconfiguration.openshift.io/controlPlaneTopology': 'HighlyAvailable',
        'machineconfiguration.openshift.io/currentConfig': input.renderedConfig,
        'machineconfiguration.openshift.io/desiredConfig': input.renderedConfig,
        'machineconfiguration.openshift.io/desiredDrain': `uncordon-${input.renderedConfig}`,
        'machineconfiguration.openshift.io/lastAppliedDrain': `uncordon-${input.renderedConfig}`,
        'machineconfiguration.openshift.io/reason': '',
        'machineconfiguration.openshift.io/state': 'Done',
      };
  annotations['volumes.kubernetes.io/controller-managed-attach-detach'] = 'true';
  annotations['k8s.ovn.org/zone-name'] = name;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name.split('.')[0],
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': input.role === 'master' ? 'm6a.2xlarge' : 'm6a.4xlarge',
        'node.openshift.io/os_id': 'rhcos',
        'topology.kubernetes.io/region': 'us-east-2',
        'topology.kubernetes.io/zone': zone,
        ...roleLabels,
      },
      annotations,
    },
    spec: {
      providerID: `aws:///${zone}/i-0${name.length}${ip.replace(/\./g, '')}abc`,
      ...(input.role === 'master' ? { taints: [{ effect: 'NoSchedule', key: 'node-role.kubernetes.io/master' }] } : {}),
    },
    status: {
      addresses: [
        { address: ip, type: 'InternalIP' },
        { address: name, type: 'InternalDNS' },
        { address: name, type: 'Hostname' },
      ],
      allocatable: { cpu: '15500m', memory: '63008912Ki', pods: input.role === 'master' ? '250' : '2500' },
      capacity: { cpu: '16', memory: '64159888Ki', pods: input.role === 'master' ? '250' : '2500' },
      conditions: nodeConditions(true, since, since),
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: nodeInfo(input.version),
    },
  };
}

/** The four pressure conditions plus Ready. */
export function nodeConditions(ready: boolean, heartbeat: string, readySince: string): Record<string, string>[] {
  return [
    {
      type: 'MemoryPressure',
      status: 'False',
      reason: 'KubeletHasSufficientMemory',
      message: 'kubelet has sufficient memory available',
      lastHeartbeatTime: heartbeat,
      lastTransitionTime: readySince,
    },
    {
      type: 'DiskPressure',
      status: 'False',
      reason: 'KubeletHasNoDiskPressure',
      message: 'kubelet has no disk pressure',
      lastHeartbeatTime: heartbeat,
      lastTransitionTime: readySince,
    },
    {
      type: 'PIDPressure',
      status: 'False',
      reason: 'KubeletHasSufficientPID',
      message: 'kubelet has sufficient PID available',
      lastHeartbeatTime: heartbeat,
      lastTransitionTime: readySince,
    },
    ready
      ? {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: heartbeat,
          lastTransitionTime: readySince,
        }
      : {
          type: 'Ready',
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
          lastHeartbeatTime: heartbeat,
          lastTransitionTime: readySince,
        },
  ];
}

/** status.nodeInfo of a node running `version`. */
export function nodeInfo(version: string): Record<string, string> {
  const kubelet = kubeletVersion(version);
  return {
    architecture: 'amd64',
    bootID: '',
    containerRuntimeVersion: 'cri-o://1.29.8-5.rhaos4.16.git0f9a7bf.el9',
    kernelVersion: '5.14.0-427.33.1.el9_4.x86_64',
    kubeProxyVersion: kubelet,
    kubeletVersion: kubelet,
    machineID: '',
    operatingSystem: 'linux',
    osImage: osImage(version),
    systemUUID: '',
  };
}
