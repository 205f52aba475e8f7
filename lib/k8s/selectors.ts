/**
 * Label and field selectors with the API server's syntax and error wording. Pure: used by the embedded API server
 * and by offline analysis to match objects the way a live cluster would.
 */
import type { KubeObject } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';

/** A malformed label or field selector; the message is the API server's wording. */
export class SelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorError';
  }
}

/** A compiled selector: true when the object matches. */
export type Matcher = (object: KubeObject) => boolean;

type Requirement =
  | { op: 'eq' | 'neq'; key: string; value: string }
  | { op: 'in' | 'notin'; key: string; values: string[] }
  | { op: 'exists' | 'notexists'; key: string };

/** Splits on commas that are not inside `( )`. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const ch = selector[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms.map((term) => term.trim()).filter((term) => term.length > 0);
}

function parseLabelTerm(term: string, selector: string): Requirement {
  const setMatch = /^([^\s!=()]+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
  if (setMatch) {
    const values = setMatch[3]
      .split(',')
      .map((value) => value.trim())
      .filter((value) => value.length > 0);
    return { op: setMatch[2] as 'in' | 'notin', key: setMatch[1], values };
  }
  const cmp = /^([^\s!=()]+)\s*(==|!=|=)\s*([^\s!=(),]*)$/.exec(term);
  if (cmp) return { op: cmp[2] === '!=' ? 'neq' : 'eq', key: cmp[1], value: cmp[3] };
  const notExists = /^!\s*([^\s!=()]+)$/.exec(term);
  if (notExists) return { op: 'notexists', key: notExists[1] };
  if (/^[^\s!=()]+$/.test(term)) return { op: 'exists', key: term };
  throw new SelectorError(
    `unable to parse requirement: found '${term}', expected: in, notin, =, ==, !=, gt, lt (selector "${selector}")`,
  );
}

function test(requirement: Requirement, value: string | undefined): boolean {
  switch (requirement.op) {
    case 'eq':
      return value === requirement.value;
    case 'neq':
      return value !== requirement.value;
    case 'in':
      return value !== undefined && requirement.values.includes(value);
    case 'notin':
      return value === undefined || !requirement.values.includes(value);
    case 'exists':
      return value !== undefined;
    case 'notexists':
      return value === undefined;
  }
}

/** Compiles a label selector (`a=b,c!=d,e in (x,y),f notin (z),g,!h`). */
export function compileLabelSelector(selector: string | undefined): Matcher | undefined {
  if (!selector || !selector.trim()) return undefined;
  const requirements = splitTerms(selector).map((term) => parseLabelTerm(term, selector));
  return (object) => {
    const labels = object.metadata.labels ?? {};
    return requirements.every((requirement) => test(requirement, labels[requirement.key]));
  };
}

const FIELD_GETTERS: Record<string, (object: KubeObject) => string | undefined> = {
  'metadata.name': (object) => object.metadata.name,
  'metadata.namespace': (object) => object.metadata.namespace ?? '',
};

const POD_FIELD_GETTERS: Record<string, (object: KubeObject) => string | undefined> = {
  'spec.nodeName': (object) => (object.spec as { nodeName?: string } | undefined)?.nodeName ?? '',
  'status.phase': (object) => (object.status as { phase?: string } | undefined)?.phase ?? '',
};

/** Compiles a field selector on metadata.name / metadata.namespace (and spec.nodeName, status.phase for pods). */
export function compileFieldSelector(resource: ResourceName, selector: string | undefined): Matcher | undefined {
  if (!selector || !selector.trim()) return undefined;
  const getters = resource === 'pods' ? { ...FIELD_GETTERS, ...POD_FIELD_GETTERS } : FIELD_GETTERS;
  const requirements = splitTerms(selector).map((term) => {
    const match = /^([^\s!=]+)\s*(==|!=|=)\s*(.*)$/.exec(term);
    if (!match) throw new SelectorError(`invalid selector: '${selector}'; can't understand '${term}'`);
    const getter = getters[match[1]];
    if (!getter) {
      const known = Object.keys(getters)
        .map((key) => `"${key}"`)
        .join(', ');
      throw new SelectorError(`"${match[1]}" is not a known field selector: only ${known}`);
    }
    return { getter, negate: match[2] === '!=', value: match[3].trim() };
  });
  return (object) => requirements.every(({ getter, negate, value }) => (getter(object) === value) !== negate);
}

/** One `matchExpressions` entry, as untyped JSON. */
export interface SelectorRequirement {
  key?: unknown;
  operator?: unknown;
  values?: unknown;
}

/** A structured label selector (`matchLabels` + `matchExpressions`) as in Deployments, PDBs and pools, as JSON. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: SelectorRequirement[];
}

/**
 * Whether `labels` match `selector`, with `metav1.LabelSelectorAsSelector` semantics: a missing selector matches
 * nothing, an empty one matches everything.
 */
export function matchesSelector(
  selector: LabelSelector | undefined | null,
  labels: Record<string, string> | undefined,
): boolean {
  if (!selector) return false;
  const set = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (set[key] !== value) return false;
  }
  for (const requirement of selector.matchExpressions ?? []) {
    const key = typeof requirement.key === 'string' ? requirement.key : '';
    const values = Array.isArray(requirement.values) ? (requirement.values as string[]) : [];
    const present = Object.prototype.hasOwnProperty.call(set, key);
    switch (requirement.operator) {
      case 'In':
        if (!present || !values.includes(set[key])) return false;
        break;
      case 'NotIn':
        if (present && values.includes(set[key])) return false;
        break;
      case 'Exists':
        if (!present) return false;
        break;
      case 'DoesNotExist':
        if (present) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
