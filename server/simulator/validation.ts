import type { KubeObject } from '@/lib/k8s/types';
import { RESOURCES, type ResourceInfo, type ResourceName } from '@/lib/k8s/resources';
import type { FieldCause } from './errors';

/** The subset of a CRD's structural OpenAPI v3 schema the simulator validates and prunes with. */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  enum?: unknown[];
  nullable?: boolean;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
}

/** What the API server takes from an installed CRD for one resource. */
export interface CrdFacts {
  kind: string;
  group: string;
  schema?: JsonSchema;
  hasStatusSubresource: boolean;
}

interface CrdVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  schema?: { openAPIV3Schema?: JsonSchema };
  subresources?: { status?: unknown };
}

/** Resources the API server serves from CustomResourceDefinitions (everything not built in). */
export function isCustomResource(resource: ResourceName): boolean {
  const info: ResourceInfo = RESOURCES[resource];
  return (
    info.group !== '' &&
    ![
      'apps',
      'policy',
      'coordination.k8s.io',
      'apiextensions.k8s.io',
      'rbac.authorization.k8s.io',
      'user.openshift.io',
    ].includes(info.group)
  );
}

/** The CRD name of a custom resource (`clusterversions.config.openshift.io`). */
export function crdName(resource: ResourceName): string {
  const info: ResourceInfo = RESOURCES[resource];
  return `${resource}.${info.group}`;
}

/** Reads the served version's schema and subresources from an installed CRD object. */
export function crdFacts(resource: ResourceName, crd: KubeObject | undefined): CrdFacts {
  const info: ResourceInfo = RESOURCES[resource];
  if (!crd) return { kind: info.kind, group: info.group, hasStatusSubresource: true };
  const spec = (crd.spec ?? {}) as { versions?: CrdVersion[]; names?: { kind?: string } };
  const version = spec.versions?.find((candidate) => candidate.name === info.version && candidate.served !== false);
  return {
    kind: spec.names?.kind ?? info.kind,
    group: info.group,
    schema: version?.schema?.openAPIV3Schema,
    hasStatusSubresource: Boolean(version?.subresources?.status),
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Go-style quoting of a bad value, as field.Error prints it. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(schema: JsonSchema, value: unknown): boolean {
  if (schema['x-kubernetes-int-or-string']) return typeof value === 'string' || Number.isInteger(value);
  switch (schema.type) {
    case undefined:
      return true;
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return true;
  }
}

function validateValue(value: unknown, schema: JsonSchema, path: string, causes: FieldCause[]): void {
  if (value === null) {
    if (!schema.nullable) causes.push(typeInvalid(path, value, schema));
    return;
  }
  if (!matchesType(schema, value)) {
    causes.push(typeInvalid(path, value, schema));
    return;
  }
  if (schema.enum && !schema.enum.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value))) {
    const supported = schema.enum.map((allowed) => JSON.stringify(allowed)).join(', ');
    causes.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${describeValue(value)}: supported values: ${supported}`,
      field: path,
    });
  }
  if (typeof value === 'string') {
    if (schema.maxLength !== undefined && value.length > schema.maxLength) {
      causes.push({
        reason: 'FieldValueTooLong',
        message: `Too long: may not be more than ${schema.maxLength} bytes`,
        field: path,
      });
    }
    if (schema.minLength !== undefined && value.length < schema.minLength) {
      causes.push(invalidValue(path, value, `${path} in body should be at least ${schema.minLength} chars long`));
    }
    if (schema.pattern !== undefined && !safePattern(schema.pattern).test(value)) {
      causes.push(invalidValue(path, value, `${path} in body should match '${schema.pattern}'`));
    }
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) {
      causes.push(invalidValue(path, value, `${path} in body should be greater than or equal to ${schema.minimum}`));
    }
    if (schema.maximum !== undefined && value > schema.maximum) {
      causes.push(invalidValue(path, value, `${path} in body should be less than or equal to ${schema.maximum}`));
    }
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      causes.push({
        reason: 'FieldValueTooMany',
        message: `Too many: ${value.length}: must have at most ${schema.maxItems} items`,
        field: path,
      });
    }
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      causes.push(invalidValue(path, value, `${path} in body should have at least ${schema.minItems} items`));
    }
    if (schema.items)
      value.forEach((item, index) => validateValue(item, schema.items as JsonSchema, `${path}[${index}]`, causes));
    return;
  }
  if (isPlainObject(value)) {
    for (const name of schema.required ?? []) {
      if (value[name] === undefined)
        causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: join(path, name) });
    }
    for (const [name, child] of Object.entries(value)) {
      const childSchema =
        schema.properties?.[name] ??
        (isPlainObject(schema.additionalProperties) ? schema.additionalProperties : undefined);
      if (childSchema) validateValue(child, childSchema, join(path, name), causes);
    }
  }
}

const patternCache = new Map<string, RegExp>();
function safePattern(pattern: string): RegExp {
  let compiled = patternCache.get(pattern);
  if (!compiled) {
    try {
      compiled = new RegExp(pattern, 'u');
    } catch {
      compiled = /[\s\S]*/;
    }
    patternCache.set(pattern, compiled);
  }
  return compiled;
}

function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

function typeInvalid(path: string, value: unknown, schema: JsonSchema): FieldCause {
  const actual = typeName(value);
  const expected = schema['x-kubernetes-int-or-string'] ? 'integer,string' : (schema.type ?? 'object');
  return {
    reason: 'FieldValueTypeInvalid',
    message: `Invalid value: "${actual}": ${path} in body must be of type ${expected}: "${actual}"`,
    field: path,
  };
}

function invalidValue(path: string, value: unknown, detail: string): FieldCause {
  return { reason: 'FieldValueInvalid', message: `Invalid value: ${describeValue(value)}: ${detail}`, field: path };
}

/**
 * Validates a custom resource against its CRD's structural schema (type, enum, required, lengths, ranges,
 * patterns; nested objects and arrays). The root's apiVersion, kind and metadata are the API server's business.
 */
export function validateCustomResource(object: KubeObject, schema: JsonSchema | undefined): FieldCause[] {
  if (!schema) return [];
  const causes: FieldCause[] = [];
  for (const name of schema.required ?? []) {
    if (object[name] === undefined)
      causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: name });
  }
  for (const [name, value] of Object.entries(object)) {
    if (name === 'apiVersion' || name === 'kind' || name === 'metadata') continue;
    const childSchema = schema.properties?.[name];
    if (childSchema) validateValue(value, childSchema, name, causes);
  }
  return causes;
}

function pruneValue(value: unknown, schema: JsonSchema): unknown {
  if (Array.isArray(value))
    return schema.items ? value.map((item) => pruneValue(item, schema.items as JsonSchema)) : value;
  if (!isPlainObject(value)) return value;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value)) {
    if (schema['x-kubernetes-embedded-resource'] && (name === 'apiVersion' || name === 'kind' || name === 'metadata')) {
      out[name] = child;
      continue;
    }
    const childSchema =
      schema.properties?.[name] ??
      (isPlainObject(schema.additionalProperties) ? schema.additionalProperties : undefined);
    if (childSchema) {
      if (child === null && !childSchema.nullable) continue;
      out[name] = pruneValue(child, childSchema);
    } else if (preserve || schema.additionalProperties === true) {
      out[name] = child;
    }
  }
  return out;
}

/** Drops fields the schema does not know (and non-nullable nulls), as the API server prunes structural CRs. */
export function pruneCustomResource(object: KubeObject, schema: JsonSchema | undefined): KubeObject {
  if (!schema || schema['x-kubernetes-preserve-unknown-fields']) return object;
  const { apiVersion, kind, metadata, ...rest } = object;
  const pruned = pruneValue(rest, schema) as Record<string, unknown>;
  return { apiVersion, kind, metadata, ...pruned } as KubeObject;
}
