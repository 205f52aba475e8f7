import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '@/lib/k8s/types';
import { minorOf } from './releases';

/** Enabled and disabled gate names of one release, as the rendered payload FeatureGate lists them. */
export interface GateSet {
  enabled: { name: string }[];
  disabled: { name: string }[];
}

const RENDERED_DIR = '../../fixtures/openshift-api/crds/featuregate/rendered/';

/** Rendered payload FeatureGates available per minor; older minors reuse the oldest rendered file. */
function renderedFile(version: string, hosted: boolean): string {
  const minor = minorOf(version);
  const n = Number(minor.split('.')[1]);
  if (n <= 15) return '4.15-Default.yaml';
  if (n > 21) return hosted ? '4.21-Hypershift-Default.yaml' : '4.21-SelfManagedHA-Default.yaml';
  return hosted ? `${minor}-Hypershift-Default.yaml` : `${minor}-SelfManagedHA-Default.yaml`;
}

const cache = new Map<string, GateSet>();

/** The Default-feature-set gates of a release, read from the rendered payload manifests in server/fixtures. */
export function gateSetFor(version: string, hosted = false): GateSet {
  const file = renderedFile(version, hosted);
  const cached = cache.get(file);
  if (cached) return cached;
  const text = readFileSync(fileURLToPath(new URL(`${RENDERED_DIR}${file}`, import.meta.url)), 'utf8');
  const rendered = JSON.parse(text) as {
    status: { featureGates: { enabled?: { name: string }[]; disabled?: { name: string }[] }[] };
  };
  const first = rendered.status.featureGates[0];
  const set: GateSet = {
    enabled: (first.enabled ?? []).map((gate) => ({ name: gate.name })),
    disabled: (first.disabled ?? []).map((gate) => ({ name: gate.name })),
  };
  cache.set(file, set);
  return set;
}

/** status.featureGates entries for `versions` (newest first, as cluster-config-operator orders them). */
export function featureGateDetails(versions: string[], hosted = false): Record<string, unknown>[] {
  return versions.map((version) => {
    const set = gateSetFor(version, hosted);
    return { version, enabled: set.enabled, disabled: set.disabled };
  });
}

/** The FeatureGate `cluster` (status written separately). */
export function buildFeatureGate(featureSet = ''): KubeObject {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'FeatureGate',
    metadata: {
      name: 'cluster',
      annotations: { 'include.release.openshift.io/self-managed-high-availability': 'true' },
    },
    spec: featureSet ? { featureSet } : {},
  };
}
