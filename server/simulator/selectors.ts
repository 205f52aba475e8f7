import type { ResourceName } from '@/lib/k8s/resources';
import {
  SelectorError,
  compileFieldSelector as compileField,
  compileLabelSelector as compileLabel,
  type Matcher,
} from '@/lib/k8s/selectors';
import { badRequest } from './errors';

export type { Matcher } from '@/lib/k8s/selectors';

function asBadRequest<T>(compile: () => T): T {
  try {
    return compile();
  } catch (error) {
    if (error instanceof SelectorError) throw badRequest(error.message);
    throw error;
  }
}

/** Label selector of a request; a malformed one is a 400 Status like the API server's. */
export function compileLabelSelector(selector: string | undefined): Matcher | undefined {
  return asBadRequest(() => compileLabel(selector));
}

/** Field selector of a request; a malformed or unsupported one is a 400 Status. */
export function compileFieldSelector(resource: ResourceName, selector: string | undefined): Matcher | undefined {
  return asBadRequest(() => compileField(resource, selector));
}
