/**
 * Minimal, structural Kubernetes object types shared by the simulator, the watch layer and the detectors.
 * They describe plain JSON (what the API server sends), never client-library class instances.
 */

/** Metadata common to every object. Only the fields the product reads are typed; the rest pass through. */
export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  managedFields?: ManagedFieldsEntry[];
  [key: string]: unknown;
}

/** A controller reference from metadata.ownerReferences. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
}

/** One metadata.managedFields entry; `time` tells when that manager last wrote. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  subresource?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
}

/** Any API object as JSON. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec?: unknown;
  status?: unknown;
  [key: string]: unknown;
}

/** A list response (`<Kind>List`). */
export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

/** A standard condition (metav1.Condition and the OpenShift ClusterOperatorStatusCondition share these fields). */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

/** A reference to one object, used as the subject of findings and in evidence. */
export interface ObjectRef {
  apiVersion?: string;
  kind: string;
  name: string;
  namespace?: string;
}

/** A watch event as sent on the wire. */
export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

/** The metav1.Status body the API server returns for errors. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never> | { [key: string]: unknown };
  status: 'Failure' | 'Success';
  message: string;
  reason: string;
  code: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: { reason: string; message: string; field: string }[];
    retryAfterSeconds?: number;
  };
}
