import type { KubeObject } from '@/lib/k8s/types';
import { RESOURCES, apiVersionOf, type ResourceInfo, type ResourceName } from '@/lib/k8s/resources';
import type { PatchType } from './types';
import { badRequest, conflict, alreadyExists, invalid, notFound, unsupportedPatchType } from './errors';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from './patch';
import { randomSuffix } from './random';
import { StoredEntry, type ObjectStore } from './store';
import {
  crdFacts,
  crdName,
  isCustomResource,
  pruneCustomResource,
  validateCustomResource,
  type CrdFacts,
} from './validation';

/** Built-in types that have a `/status` subresource (events and leases do not). */
const BUILTIN_STATUS = new Set<ResourceName>([
  'namespaces',
  'pods',
  'nodes',
  'services',
  'deployments',
  'poddisruptionbudgets',
  'customresourcedefinitions',
]);

/** API groups of add-ons, served only once their CRDs are installed. */
const ADD_ON_GROUPS: ReadonlySet<string> = new Set(['hypershift.openshift.io']);

/** How a write is made. */
export interface WriteOptions {
  manager: string;
  dryRun?: boolean;
  subresource?: 'status';
  /** `Apply` for server-side apply requests (managedFields operation). */
  operation?: 'Update' | 'Apply';
  /** Over HTTP a create drops status for types with a status subresource; in-process seeding keeps it. */
  keepStatusOnCreate?: boolean;
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function sameContent(a: KubeObject, b: KubeObject): boolean {
  const strip = (object: KubeObject) => {
    const { resourceVersion: _rv, managedFields: _mf, ...metadata } = object.metadata;
    void _rv;
    void _mf;
    return JSON.stringify({ ...object, metadata });
  };
  return strip(a) === strip(b);
}

/**
 * The API server's request semantics on top of the store: defaulting of kind/apiVersion, namespaces and names,
 * status subresource rules, CRD pruning and validation against the installed CRD, optimistic concurrency,
 * no-op detection, patches and dry runs. Both the in-process client and the HTTP server go through it.
 */
export class ResourceApi {
  constructor(readonly store: ObjectStore) {}

  /** Facts from the currently installed CRD for a custom resource (undefined for built-ins). */
  crd(resource: ResourceName): CrdFacts | undefined {
    if (!isCustomResource(resource)) return undefined;
    return crdFacts(resource, this.store.get('customresourcedefinitions', undefined, crdName(resource))?.object);
  }

  /**
   * Whether the API server serves the resource now. An add-on's API (HyperShift's) exists once its CRDs are installed,
   * as on a real cluster: a standalone cluster has none, the management cluster's operator installs them. The
   * payload's own APIs are served from the start (not every payload CRD is loaded from the fixtures).
   */
  served(resource: ResourceName): boolean {
    if (!ADD_ON_GROUPS.has(RESOURCES[resource].group)) return true;
    return this.store.get('customresourcedefinitions', undefined, crdName(resource)) !== undefined;
  }

  /** Whether the resource has a `/status` subresource right now. */
  hasStatus(resource: ResourceName): boolean {
    const facts = this.crd(resource);
    return facts ? facts.hasStatusSubresource : BUILTIN_STATUS.has(resource);
  }

  private ns(resource: ResourceName, namespace: string | undefined): string | undefined {
    const info: ResourceInfo = RESOURCES[resource];
    return info.namespaced ? namespace || undefined : undefined;
  }

  /** The stored entry or a 404. */
  get(resource: ResourceName, name: string, namespace?: string): StoredEntry {
    const entry = this.store.get(resource, this.ns(resource, namespace), name);
    if (!entry) throw notFound(resource, name);
    return entry;
  }

  private normalise(resource: ResourceName, body: KubeObject, namespace: string | undefined): KubeObject {
    const info: ResourceInfo = RESOURCES[resource];
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw badRequest('the body of the request must be an object');
    const object = clone(body);
    object.apiVersion = apiVersionOf(resource);
    object.kind = info.kind;
    object.metadata = { ...(object.metadata ?? {}) } as KubeObject['metadata'];
    if (info.namespaced) {
      const fromBody = object.metadata.namespace;
      if (namespace && fromBody && fromBody !== namespace) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      const chosen = namespace || fromBody;
      if (!chosen) throw badRequest('an empty namespace may not be set during creation');
      object.metadata.namespace = chosen;
    } else {
      delete object.metadata.namespace;
    }
    return object;
  }

  private admit(resource: ResourceName, object: KubeObject): KubeObject {
    const facts = this.crd(resource);
    if (!facts?.schema) return object;
    const pruned = pruneCustomResource(object, facts.schema);
    const causes = validateCustomResource(pruned, facts.schema);
    if (causes.length) throw invalid(facts.kind, facts.group, object.metadata.name, causes);
    return pruned;
  }

  /** POST: creates an object. */
  create(resource: ResourceName, body: KubeObject, namespace: string | undefined, options: WriteOptions): StoredEntry {
    const info: ResourceInfo = RESOURCES[resource];
    let object = this.normalise(resource, body, namespace);
    if (!object.metadata.name) {
      if (object.metadata.generateName) {
        object.metadata.name = `${object.metadata.generateName as string}${randomSuffix(() => this.store.nameRandom())}`;
      } else {
        throw invalid(info.kind, info.group, '', [
          {
            reason: 'FieldValueRequired',
            message: 'Required value: name or generateName is required',
            field: 'metadata.name',
          },
        ]);
      }
    }
    if (this.store.get(resource, this.ns(resource, object.metadata.namespace), object.metadata.name)) {
      throw alreadyExists(resource, object.metadata.name);
    }
    delete object.metadata.resourceVersion;
    if (!options.keepStatusOnCreate && this.hasStatus(resource) && isCustomResource(resource)) delete object.status;
    object = this.admit(resource, object);
    if (options.dryRun) return this.preview(object);
    return this.store.create(resource, object, {
      manager: options.manager,
      subresource: options.subresource,
      operation: options.operation,
    });
  }

  private preview(object: KubeObject): StoredEntry {
    return new StoredEntry(object, this.store.currentRv());
  }

  /** PUT: replaces an object (or only its status with `subresource: 'status'`). */
  update(resource: ResourceName, body: KubeObject, namespace: string | undefined, options: WriteOptions): StoredEntry {
    const incoming = this.normalise(resource, body, namespace ?? body?.metadata?.namespace);
    const name = incoming.metadata.name;
    if (!name) throw badRequest('name is required');
    const previous = this.get(resource, name, incoming.metadata.namespace);
    const requestedRv = incoming.metadata.resourceVersion;
    if (requestedRv && requestedRv !== previous.object.metadata.resourceVersion) throw conflict(resource, name);
    return this.write(resource, previous, incoming, options);
  }

  private write(
    resource: ResourceName,
    previous: StoredEntry,
    incoming: KubeObject,
    options: WriteOptions,
  ): StoredEntry {
    const old = previous.object;
    let next: KubeObject;
    if (options.subresource === 'status') {
      next = clone(old);
      if (incoming.status === undefined) delete next.status;
      else next.status = incoming.status;
    } else {
      next = { ...incoming, metadata: { ...incoming.metadata, managedFields: old.metadata.managedFields } };
      if (this.hasStatus(resource)) {
        if (old.status === undefined) delete next.status;
        else next.status = clone(old.status);
      }
    }
    next.metadata.resourceVersion = old.metadata.resourceVersion;
    next.metadata.uid = old.metadata.uid;
    next.metadata.creationTimestamp = old.metadata.creationTimestamp;
    if (old.metadata.generation !== undefined) next.metadata.generation = old.metadata.generation;
    next = this.admit(resource, next);
    if (sameContent(next, old)) return previous;
    if (options.dryRun) return this.preview(next);
    return this.store.update(resource, previous, next, {
      manager: options.manager,
      subresource: options.subresource,
      operation: options.operation,
    });
  }

  /** PATCH with merge, JSON (RFC 6902) or strategic merge (built-in types only; custom resources answer 415). */
  patch(
    resource: ResourceName,
    name: string,
    namespace: string | undefined,
    patch: unknown,
    type: PatchType,
    options: WriteOptions,
  ): StoredEntry {
    if (type === 'strategic' && isCustomResource(resource)) throw unsupportedPatchType();
    const previous = this.get(resource, name, namespace);
    const base = clone(previous.object);
    let patched: KubeObject;
    if (type === 'json') patched = applyJsonPatch(base, patch) as KubeObject;
    else if (type === 'strategic') patched = applyStrategicMergePatch(base, patch) as KubeObject;
    else {
      if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
        throw badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}');
      }
      patched = applyMergePatch(base, patch) as KubeObject;
    }
    if (typeof patched !== 'object' || patched === null || !patched.metadata)
      throw badRequest('the patch removed the object metadata');
    const requestedRv = patched.metadata.resourceVersion;
    if (requestedRv && requestedRv !== previous.object.metadata.resourceVersion) throw conflict(resource, name);
    const incoming = this.normalise(
      resource,
      { ...patched, metadata: { ...patched.metadata, name } },
      previous.object.metadata.namespace,
    );
    return this.write(resource, previous, incoming, options);
  }

  /** DELETE: removes the object and returns its last state. */
  delete(
    resource: ResourceName,
    name: string,
    namespace: string | undefined,
    options: { dryRun?: boolean } = {},
  ): StoredEntry {
    const previous = this.get(resource, name, namespace);
    if (options.dryRun) return previous;
    return this.store.delete(resource, previous);
  }
}
