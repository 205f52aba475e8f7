import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '@/lib/k8s/types';
import { badRequest, unsupportedPatchType } from './errors';
import { readBody, sendJson } from './http-util';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from './patch';
import type { ResourceApi, WriteOptions } from './resource-api';
import type { StoredEntry } from './store';

/** Resources that serve the `scale` subresource (an autoscaling/v1 Scale), as `kubectl scale` uses it. */
export const SCALABLE_RESOURCES = ['deployments'] as const;

/** Discovery entry fields of a scale subresource: its kind lives in autoscaling/v1. */
export const SCALE_DISCOVERY = { group: 'autoscaling', version: 'v1', kind: 'Scale' } as const;

const PATCH_CONTENT_TYPES: Record<string, 'merge' | 'json' | 'strategic'> = {
  'application/merge-patch+json': 'merge',
  'application/json-patch+json': 'json',
  'application/strategic-merge-patch+json': 'strategic',
};

function labelSelector(object: KubeObject): string {
  const spec = object.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined;
  const labels = spec?.selector?.matchLabels ?? {};
  return Object.entries(labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

/** The Scale view of a stored Deployment. */
function scaleOf(entry: StoredEntry): Record<string, unknown> {
  const { metadata } = entry.object;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: metadata.name,
      namespace: metadata.namespace,
      uid: metadata.uid,
      resourceVersion: String(entry.rv),
      creationTimestamp: metadata.creationTimestamp,
    },
    spec: { replicas: (entry.object.spec as { replicas?: number } | undefined)?.replicas ?? 1 },
    status: {
      replicas: (entry.object.status as { replicas?: number } | undefined)?.replicas ?? 0,
      selector: labelSelector(entry.object),
    },
  };
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`error decoding request body: ${(error as Error).message}`);
  }
}

function replicasOf(scale: unknown): number {
  const replicas = (scale as { spec?: { replicas?: unknown } } | null)?.spec?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    const value = JSON.stringify(replicas);
    throw badRequest(
      `Scale.autoscaling "" is invalid: spec.replicas: Invalid value: ${value}: must be a non-negative integer`,
    );
  }
  return replicas;
}

/**
 * `GET|PUT|PATCH .../deployments/{name}/scale`: reads and writes spec.replicas through an autoscaling/v1 Scale, the
 * way `kubectl scale` / `oc scale` change a Deployment.
 */
export async function serveScale(input: {
  req: IncomingMessage;
  res: ServerResponse;
  api: ResourceApi;
  verb: string;
  name: string;
  namespace?: string;
  write: WriteOptions;
}): Promise<void> {
  const { req, res, api, verb, name, namespace, write } = input;
  const entry = api.get('deployments', name, namespace);
  if (verb === 'get') return sendJson(res, 200, scaleOf(entry));
  let wanted: unknown;
  if (verb === 'update') {
    wanted = parseBody(await readBody(req));
  } else if (verb === 'patch') {
    const type = PATCH_CONTENT_TYPES[(req.headers['content-type'] ?? '').split(';')[0].trim()];
    if (!type) throw unsupportedPatchType();
    const patch = parseBody(await readBody(req));
    const current = scaleOf(entry);
    if (type === 'json') wanted = applyJsonPatch(current, patch);
    else if (type === 'strategic') wanted = applyStrategicMergePatch(current, patch);
    else wanted = applyMergePatch(current, patch);
  } else {
    throw badRequest(`the server does not allow this method on the requested resource`);
  }
  const updated = api.patch('deployments', name, namespace, { spec: { replicas: replicasOf(wanted) } }, 'merge', write);
  return sendJson(res, 200, scaleOf(updated));
}
