import type { KubeObject } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';
import type { ListOptions, PatchType, SimClient } from './types';
import type { ResourceApi } from './resource-api';
import { compileFieldSelector, compileLabelSelector } from './selectors';
import type { StoredEntry } from './store';

function copy(entry: StoredEntry): KubeObject {
  return entry.copy();
}

/**
 * The in-process client: every call goes through the same ResourceApi as an HTTP request, writes are attributed
 * to `manager` in managedFields, and returned objects are copies the caller may mutate freely (but for `read` and
 * `readList`, which share the stored objects with a resync that only reads).
 * Unlike an HTTP create, `create` keeps a given status (seeding convenience); everything else matches.
 */
export class InProcessClient implements SimClient {
  constructor(
    private readonly api: ResourceApi,
    readonly manager: string,
  ) {}

  /** The object, or undefined when it does not exist. */
  get(resource: ResourceName, name: string, namespace?: string): KubeObject | undefined {
    const entry = this.api.store.get(resource, namespace || undefined, name);
    return entry ? copy(entry) : undefined;
  }

  /** Objects of a type, in key order, filtered like the HTTP list. */
  list(resource: ResourceName, options: ListOptions = {}): KubeObject[] {
    return this.entries(resource, options).map(copy);
  }

  /** The stored object, shared (see {@link SimClient.read}). */
  read(resource: ResourceName, name: string, namespace?: string): Readonly<KubeObject> | undefined {
    return this.api.store.get(resource, namespace || undefined, name)?.object;
  }

  /** The stored objects of a type, shared (see {@link SimClient.readList}). */
  readList(resource: ResourceName, options: ListOptions = {}): readonly Readonly<KubeObject>[] {
    return this.entries(resource, options).map((entry) => entry.object);
  }

  private entries(resource: ResourceName, options: ListOptions): StoredEntry[] {
    const labels = compileLabelSelector(options.labelSelector);
    const fields = compileFieldSelector(resource, options.fieldSelector);
    const matcher = labels && fields ? (object: KubeObject) => labels(object) && fields(object) : (labels ?? fields);
    return this.api.store.list(resource, options.namespace || undefined, matcher);
  }

  /** Creates the object (status included, for seeding). */
  create(resource: ResourceName, object: KubeObject): KubeObject {
    return copy(
      this.api.create(resource, object, object.metadata?.namespace, {
        manager: this.manager,
        keepStatusOnCreate: true,
      }),
    );
  }

  /** Replaces spec and metadata; status is ignored for types with a status subresource. */
  update(resource: ResourceName, object: KubeObject): KubeObject {
    return copy(this.api.update(resource, object, object.metadata?.namespace, { manager: this.manager }));
  }

  /** Replaces only the status. */
  updateStatus(resource: ResourceName, object: KubeObject): KubeObject {
    return copy(
      this.api.update(resource, object, object.metadata?.namespace, { manager: this.manager, subresource: 'status' }),
    );
  }

  /** Patches the object (merge by default) or its status. */
  patch(
    resource: ResourceName,
    name: string,
    patch: unknown,
    options: { namespace?: string; type?: PatchType; subresource?: 'status' } = {},
  ): KubeObject {
    return copy(
      this.api.patch(resource, name, options.namespace, patch, options.type ?? 'merge', {
        manager: this.manager,
        subresource: options.subresource,
      }),
    );
  }

  /** Deletes the object (404 when it does not exist). */
  delete(resource: ResourceName, name: string, namespace?: string): void {
    this.api.delete(resource, name, namespace);
  }
}
