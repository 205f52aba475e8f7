import type { KubeObject } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';
import type { SimClient } from '../types';

/**
 * Creates an object and then writes its status through /status, as a controller does after creating: the API
 * server drops status on create for resources with a status subresource.
 */
export function createWithStatus(client: SimClient, resource: ResourceName, object: KubeObject): KubeObject {
  const { status, ...rest } = object;
  const created = client.create(resource, status === undefined ? object : { ...rest, status });
  if (status === undefined) return created;
  if (JSON.stringify(created.status) === JSON.stringify(status)) return created;
  return client.updateStatus(resource, { ...created, status });
}

/**
 * Reads the live object, applies `mutate` to a deep copy of its status and writes it through /status.
 * Returns undefined when the object does not exist.
 */
export function mutateStatus<S = Record<string, unknown>>(
  client: SimClient,
  resource: ResourceName,
  name: string,
  namespace: string | undefined,
  mutate: (status: S, object: KubeObject) => S,
): KubeObject | undefined {
  const live = client.get(resource, name, namespace);
  if (!live) return undefined;
  const copy = structuredClone((live.status ?? {}) as S);
  const next = mutate(copy, live);
  if (JSON.stringify(next) === JSON.stringify(live.status ?? {})) return live;
  return client.updateStatus(resource, { ...live, status: next as unknown });
}

/** Reads the live object, applies `mutate` to a deep copy of it and writes it with update (spec and metadata). */
export function mutateObject(
  client: SimClient,
  resource: ResourceName,
  name: string,
  namespace: string | undefined,
  mutate: (object: KubeObject) => KubeObject,
): KubeObject | undefined {
  const live = client.get(resource, name, namespace);
  if (!live) return undefined;
  const next = mutate(structuredClone(live));
  if (JSON.stringify(next) === JSON.stringify(live)) return live;
  return client.update(resource, next);
}
