import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import type { KubeObject } from '@/lib/k8s/types';

/** The ManifestWorkReplicaSet deploy/acm ships (generated from deploy/openshift by `npm run generate:acm-rbac`). */
const SHIPPED = fileURLToPath(new URL('../../../deploy/acm/managed-cluster-rbac.yaml', import.meta.url));

let cached: string | undefined;

/**
 * The RBAC objects deploy/acm distributes to every managed cluster, read from the shipped file, so the embedded
 * clusters grant the managed service account exactly what a real ACM deployment grants it. Fresh copies each call.
 */
export function managedClusterRbac(): KubeObject[] {
  if (cached === undefined) {
    const work = load(readFileSync(SHIPPED, 'utf8')) as {
      spec: { manifestWorkTemplate: { workload: { manifests: KubeObject[] } } };
    };
    cached = JSON.stringify(work.spec.manifestWorkTemplate.workload.manifests);
  }
  return JSON.parse(cached) as KubeObject[];
}
