import 'server-only';
import { RESOURCES, type ResourceName } from '@/lib/k8s/resources';
import { DETECTORS, requiredResources } from '@/lib/health/registry';
import { OfflineInputError } from './errors';

/** What an entry of a must-gather (directory or archive) is, judged from its path alone. */
export type EntryClass =
  | { kind: 'resource'; resource: ResourceName }
  | { kind: 'document' }
  | { kind: 'log'; namespace: string; pod: string; container: string; previous: boolean }
  | { kind: 'timestamp' }
  | { kind: 'history'; at: number }
  | { kind: 'alerts' }
  | { kind: 'skip' };

const DATA_FILE = /\.(ya?ml|json)$/i;
const HISTORY_FILE = /^\d+-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})-[0-9a-f]+\.ya?ml$/i;

/**
 * Rejects entry names that would escape a root if anyone ever joined them to one: absolute paths, drive letters,
 * `..` segments (with either separator) and NUL bytes. Entry names are otherwise treated as opaque keys.
 */
export function assertSafeEntryName(name: string): void {
  const unsafe =
    name.startsWith('/') ||
    name.startsWith('\\') ||
    /^[a-zA-Z]:/.test(name) ||
    name.includes('\0') ||
    name.split(/[\\/]+/).includes('..');
  if (unsafe) throw new OfflineInputError(`unsafe path in archive: ${JSON.stringify(name.slice(0, 200))}`, 'unsafe');
}

/** The resource a layout path names, when it is one the product reads (`core` is the core group). */
function knownResource(group: string, plural: string): ResourceName | undefined {
  const name = plural as ResourceName;
  const info = Object.hasOwn(RESOURCES, name) ? RESOURCES[name] : undefined;
  return info && info.group === (group === 'core' ? '' : group) ? name : undefined;
}

function resourceEntry(group: string, plural: string): EntryClass {
  const resource = knownResource(group, plural);
  return resource ? { kind: 'resource', resource } : { kind: 'skip' };
}

function stripExt(file: string): string {
  return file.replace(DATA_FILE, '');
}

/** `cluster-scoped-resources/<group>/<plural>.yaml` or `.../<group>/<plural>/<name>.yaml`. */
function clusterScoped(rest: string[]): EntryClass | undefined {
  if (rest.length === 2 && DATA_FILE.test(rest[1])) return resourceEntry(rest[0], stripExt(rest[1]));
  if (rest.length === 3 && DATA_FILE.test(rest[2])) return resourceEntry(rest[0], rest[1]);
  return rest.length >= 2 ? { kind: 'skip' } : undefined;
}

/** `namespaces/<ns>/...`: the namespace itself, resource lists and objects, pod YAML and pod logs. */
function namespaced(rest: string[]): EntryClass | undefined {
  const [ns, first, second, third] = rest;
  if (rest.length === 2 && stripExt(first) === ns && DATA_FILE.test(first)) return resourceEntry('core', 'namespaces');
  if (first === 'pods' && rest.length === 4 && stripExt(third) === second && DATA_FILE.test(third)) {
    return resourceEntry('core', 'pods');
  }
  if (first === 'pods' && rest.length === 7 && rest[3] === rest[4] && rest[5] === 'logs') {
    const file = rest[6];
    if (file === 'current.log' || file === 'previous.log') {
      return { kind: 'log', namespace: ns, pod: second, container: rest[3], previous: file === 'previous.log' };
    }
    return { kind: 'skip' };
  }
  if (first === 'pods') return { kind: 'skip' };
  // ConfigMaps are read one object at a time and only when a detector reads that name (HyperShift's rendered
  // `feature-gate`): a namespace's whole configmaps.yaml list is large and of no use.
  if (second === 'configmaps' || stripExt(second ?? '') === 'configmaps') {
    return rest.length === 4 && DATA_FILE.test(third) && NAMED_CONFIGMAPS.has(stripExt(third))
      ? resourceEntry(first, second)
      : { kind: 'skip' };
  }
  if (rest.length === 3 && DATA_FILE.test(second)) return resourceEntry(first, stripExt(second));
  if (rest.length === 4 && DATA_FILE.test(third)) return resourceEntry(first, second);
  return rest.length >= 2 ? { kind: 'skip' } : undefined;
}

/** ConfigMap names the detectors read. */
const NAMED_CONFIGMAPS: ReadonlySet<string> = new Set(
  requiredResources(DETECTORS).flatMap((need) => (need.resource === 'configmaps' && need.name ? [need.name] : [])),
);

function historyTime(file: string): number | undefined {
  const m = HISTORY_FILE.exec(file);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : undefined;
}

/**
 * Classifies an entry by its path (`/`-separated, relative to the input root; a wrapper directory such as the
 * image-digest folder may precede the layout). Paths outside the must-gather layout that end in .yaml/.yml/.json
 * are `document`s: loose object dumps, bucketed by their content.
 */
export function classifyEntry(path: string): EntryClass {
  const segments = path.split('/').filter((segment) => segment.length > 0 && segment !== '.');
  const file = segments.at(-1) ?? '';
  const anchor = segments.findIndex((segment) => segment === 'cluster-scoped-resources' || segment === 'namespaces');
  if (anchor >= 0) {
    const rest = segments.slice(anchor + 1);
    const found = segments[anchor] === 'namespaces' ? namespaced(rest) : clusterScoped(rest);
    if (found) return found;
  }
  if (file === 'timestamp' && segments.length <= 3) return { kind: 'timestamp' };
  if (segments.at(-3) === 'history') {
    const at = historyTime(file);
    if (at !== undefined) return { kind: 'history', at };
  }
  if (/alerts\.json$/i.test(file)) return { kind: 'alerts' };
  if (DATA_FILE.test(file)) return { kind: 'document' };
  return { kind: 'skip' };
}
