import type { KubeObject } from '@/lib/k8s/types';
import { RESOURCES, type ResourceName } from '@/lib/k8s/resources';
import type { ResourceApi } from './resource-api';
import { crdName } from './validation';

/** One column of a meta.k8s.io/v1 Table. */
interface Column {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
  jsonPath?: string;
  cell?: (object: KubeObject) => unknown;
}

interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

/** True when the Accept header asks for a Table (`kubectl get` without -o). */
export function wantsTable(accept: string | undefined): boolean {
  return Boolean(accept && /as=Table/.test(accept));
}

function age(object: KubeObject): unknown {
  return object.metadata.creationTimestamp;
}

const POD_COLUMNS: Column[] = [
  {
    name: 'Name',
    type: 'string',
    format: 'name',
    description: 'Name must be unique within a namespace.',
    priority: 0,
    cell: (o) => o.metadata.name,
  },
  {
    name: 'Ready',
    type: 'string',
    format: '',
    description: 'The aggregate readiness state of this pod for accepting traffic.',
    priority: 0,
    cell: (o) => {
      const statuses = (o.status as { containerStatuses?: { ready?: boolean }[] } | undefined)?.containerStatuses ?? [];
      const total = ((o.spec as { containers?: unknown[] } | undefined)?.containers ?? []).length;
      return `${statuses.filter((s) => s.ready).length}/${total}`;
    },
  },
  {
    name: 'Status',
    type: 'string',
    format: '',
    description: 'The aggregate status of the containers in this pod.',
    priority: 0,
    cell: (o) => {
      const status = o.status as
        | {
            phase?: string;
            reason?: string;
            containerStatuses?: { state?: { waiting?: { reason?: string }; terminated?: { reason?: string } } }[];
          }
        | undefined;
      if (o.metadata.deletionTimestamp) return 'Terminating';
      for (const container of status?.containerStatuses ?? []) {
        const reason = container.state?.waiting?.reason ?? container.state?.terminated?.reason;
        if (reason) return reason;
      }
      return status?.reason ?? status?.phase ?? 'Pending';
    },
  },
  {
    name: 'Restarts',
    type: 'string',
    format: '',
    description: 'The number of times the containers in this pod have been restarted.',
    priority: 0,
    cell: (o) =>
      String(
        ((o.status as { containerStatuses?: { restartCount?: number }[] } | undefined)?.containerStatuses ?? []).reduce(
          (sum, s) => sum + (s.restartCount ?? 0),
          0,
        ),
      ),
  },
  {
    name: 'Age',
    type: 'string',
    format: '',
    description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
    priority: 0,
    cell: age,
  },
  {
    name: 'IP',
    type: 'string',
    format: '',
    description: 'IP address allocated to the pod.',
    priority: 1,
    cell: (o) => (o.status as { podIP?: string } | undefined)?.podIP ?? '<none>',
  },
  {
    name: 'Node',
    type: 'string',
    format: '',
    description: 'Name of the node the pod is assigned to.',
    priority: 1,
    cell: (o) => (o.spec as { nodeName?: string } | undefined)?.nodeName ?? '<none>',
  },
];

/** Evaluates the JSONPath subset printer columns use: `.a.b`, `.a[0]`, `.a[*].b`, `.a[?(@.k=="v")].b`. */
export function evaluateJsonPath(object: unknown, path: string): unknown[] {
  const tokens = path.replace(/^\{|\}$/g, '').match(/\.[^.[]+|\[[^\]]*\]/g) ?? [];
  let current: unknown[] = [object];
  for (const token of tokens) {
    const next: unknown[] = [];
    for (const value of current) {
      if (value === null || value === undefined) continue;
      if (token.startsWith('.')) {
        const child = (value as Record<string, unknown>)[token.slice(1)];
        if (child !== undefined) next.push(child);
        continue;
      }
      if (!Array.isArray(value)) continue;
      const inner = token.slice(1, -1);
      const filter = /^\?\(@\.([\w.]+)\s*(==|!=)\s*["']([^"']*)["']\)$/.exec(inner);
      if (inner === '*') next.push(...value);
      else if (filter) {
        const [, field, op, wanted] = filter;
        next.push(
          ...value.filter((item) => (String(evaluateJsonPath(item, `.${field}`)[0]) === wanted) === (op === '==')),
        );
      } else if (/^-?\d+$/.test(inner)) {
        const index = Number(inner);
        const item = value[index < 0 ? value.length + index : index];
        if (item !== undefined) next.push(item);
      }
    }
    current = next;
  }
  return current;
}

/** Table columns for a resource, or undefined when the plain object is the better answer. */
export function tableColumns(api: ResourceApi, resource: ResourceName): Column[] | undefined {
  if (resource === 'pods') return POD_COLUMNS;
  const crd = api.store.get('customresourcedefinitions', undefined, crdName(resource))?.object;
  if (!crd) return undefined;
  const versions =
    (crd.spec as { versions?: { name: string; additionalPrinterColumns?: PrinterColumn[] }[] }).versions ?? [];
  const printer = versions.find((v) => v.name === RESOURCES[resource].version)?.additionalPrinterColumns;
  const name: Column = {
    name: 'Name',
    type: 'string',
    format: 'name',
    description: 'Name must be unique within a namespace.',
    priority: 0,
    cell: (o) => o.metadata.name,
  };
  const created: Column = {
    name: 'Age',
    type: 'date',
    format: '',
    description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
    priority: 0,
    cell: age,
  };
  if (!printer?.length) return [name, created];
  return [
    name,
    ...printer.map((column) => ({
      name: column.name,
      type: column.type,
      format: column.format ?? '',
      description: column.description ?? '',
      priority: column.priority ?? 0,
      jsonPath: column.jsonPath,
    })),
  ];
}

/** k8s.io/apimachinery duration.HumanDuration. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 192) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) % 365;
    return days === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${days}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

function cellOf(column: Column, object: KubeObject, now: number): unknown {
  let value: unknown;
  if (column.cell) value = column.cell(object);
  else {
    const values = evaluateJsonPath(object, column.jsonPath ?? '');
    if (!values.length) return null;
    const rendered = values.map((item) => (typeof item === 'object' ? JSON.stringify(item) : item));
    value = rendered.length === 1 ? rendered[0] : rendered.join(' ');
  }
  if ((column.type === 'date' || column.name === 'Age') && typeof value === 'string') {
    const time = Date.parse(value);
    return Number.isNaN(time) ? value : humanDuration(now - time);
  }
  return value;
}

/** A meta.k8s.io/v1 Table of objects (rows carry PartialObjectMetadata, as `includeObject=Metadata` asks). */
export function buildTable(
  columns: Column[],
  objects: KubeObject[],
  listMeta: Record<string, unknown>,
  now: number,
  withHeaders = true,
): unknown {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    ...(withHeaders
      ? {
          columnDefinitions: columns.map(({ name, type, format, description, priority }) => ({
            name,
            type,
            format,
            description,
            priority,
          })),
        }
      : {}),
    rows: objects.map((object) => ({
      cells: columns.map((column) => cellOf(column, object, now)),
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata },
    })),
  };
}
