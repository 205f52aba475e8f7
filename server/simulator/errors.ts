import type { Status } from '@/lib/k8s/types';
import { RESOURCES, type ResourceInfo, type ResourceName } from '@/lib/k8s/resources';
import { ApiStatusError } from './types';

/** One field error, as in k8s.io/apimachinery field.Error. */
export interface FieldCause {
  reason: string;
  message: string;
  field: string;
}

/** Builds a failure Status with the API server's shape. */
export function failure(code: number, reason: string, message: string, details?: Status['details']): Status {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) status.details = details;
  return status;
}

/** `pods` or `clusterversions.config.openshift.io`: the qualified resource as the API server prints it. */
export function qualifiedResource(resource: ResourceName): string {
  const info: ResourceInfo = RESOURCES[resource];
  return info.group ? `${resource}.${info.group}` : resource;
}

function resourceDetails(resource: ResourceName, name: string): Status['details'] {
  const info: ResourceInfo = RESOURCES[resource];
  return info.group ? { name, group: info.group, kind: resource } : { name, kind: resource };
}

/** 404 `clusterversions.config.openshift.io "x" not found`. */
export function notFound(resource: ResourceName, name: string): ApiStatusError {
  return new ApiStatusError(
    failure(404, 'NotFound', `${qualifiedResource(resource)} "${name}" not found`, resourceDetails(resource, name)),
  );
}

/** 409 AlreadyExists on create. */
export function alreadyExists(resource: ResourceName, name: string): ApiStatusError {
  return new ApiStatusError(
    failure(
      409,
      'AlreadyExists',
      `${qualifiedResource(resource)} "${name}" already exists`,
      resourceDetails(resource, name),
    ),
  );
}

/** 409 Conflict on a stale resourceVersion. */
export function conflict(resource: ResourceName, name: string): ApiStatusError {
  return new ApiStatusError(
    failure(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualifiedResource(resource)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      resourceDetails(resource, name),
    ),
  );
}

/** 400 BadRequest. */
export function badRequest(message: string): ApiStatusError {
  return new ApiStatusError(failure(400, 'BadRequest', message));
}

/** 410 Expired for a resourceVersion older than the retained history. */
export function tooOldResourceVersion(requested: number, oldest: number): ApiStatusError {
  return new ApiStatusError(failure(410, 'Expired', `too old resource version: ${requested} (${oldest})`));
}

/** 410 Expired for a continue token whose snapshot was compacted. */
export function continueExpired(): ApiStatusError {
  return new ApiStatusError(
    failure(
      410,
      'Expired',
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
    ),
  );
}

/**
 * 422 Invalid with the apiserver's message: one cause is printed as is, several as `[a, b]`
 * (field.ErrorList.ToAggregate, which also drops duplicate messages).
 */
export function invalid(kind: string, group: string, name: string, causes: FieldCause[]): ApiStatusError {
  const texts = [...new Set(causes.map((cause) => (cause.field ? `${cause.field}: ${cause.message}` : cause.message)))];
  const aggregate = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  const qualified = group ? `${kind}.${group}` : kind;
  const details: NonNullable<Status['details']> = { name, kind, causes };
  if (group) details.group = group;
  return new ApiStatusError(failure(422, 'Invalid', `${qualified} "${name}" is invalid: ${aggregate}`, details));
}

/** 415 for strategic merge patches on custom resources. */
export function unsupportedPatchType(): ApiStatusError {
  return new ApiStatusError(
    failure(
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    ),
  );
}
