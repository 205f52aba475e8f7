import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { incidentSchema } from '@/lib/api/incident-dto';
import { type FindingDto } from '@/lib/api/dto';
import type { KubeObject } from '@/lib/k8s/types';
import { ROLLBACK_AFTER_WINDOW } from '@/server/simulator/scenarios/cross-minor-rollback';
import { dig } from '@/lib/health/shared/objects';
import { createIncident } from './incident-service';
import { isIncidentId } from './incident-id';
import { SqliteIncidentRepository } from './sqlite-incident-repository';
import { scenarioSource } from '@/server/testing/incident-source';

const dir = mkdtempSync(join(tmpdir(), 'incidents-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PASSWORD = 'Tr0ub4dor&3-db-password';
const PULL_AUTH = Buffer.from('robot$pull:8QJ2M1VX0QWERTY').toString('base64');
const DOCKERCONFIG = Buffer.from(JSON.stringify({ auths: { 'registry.example.com': { auth: PULL_AUTH } } })).toString(
  'base64',
);
const TOKEN = 'sha256~q7Yx3-kP0sLmN2vB8cR4tW6zA1eD5fG9hJ';
const LAST_APPLIED = JSON.stringify({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'db' },
  data: { password: PASSWORD },
});
const SECRET_VALUE = Buffer.from('s3cr3t-value-that-must-not-leak').toString('base64');

const secrets: KubeObject[] = [
  {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'pull-secret', namespace: 'openshift-config' },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': DOCKERCONFIG },
  } as KubeObject,
  {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'db',
      namespace: 'app',
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': LAST_APPLIED },
    },
    data: { password: SECRET_VALUE },
    stringData: { token: TOKEN },
  } as KubeObject,
];
const configMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'admin-kubeconfig',
    namespace: 'app',
    annotations: { 'kubectl.kubernetes.io/last-applied-configuration': LAST_APPLIED },
  },
  data: { kubeconfig: `users:\n- name: admin\n  user:\n    token: ${TOKEN}\n`, password: PASSWORD },
} as KubeObject;
const leakyFinding: FindingDto = {
  id: 'test:Secret/app/db',
  detector: 'install-settling',
  severity: 'warning',
  subject: { apiVersion: 'v1', kind: 'Secret', name: 'db', namespace: 'app' },
  title: 'Secret referenced by a failing install',
  summary: `login failed with password=${PASSWORD}`,
  evidence: [
    {
      kind: 'object',
      label: 'pull secret',
      ref: { apiVersion: 'v1', kind: 'Secret', name: 'pull-secret', namespace: 'openshift-config' },
    },
    {
      kind: 'object',
      label: 'kubeconfig',
      ref: { apiVersion: 'v1', kind: 'ConfigMap', name: 'admin-kubeconfig', namespace: 'app' },
    },
    { kind: 'log', label: 'request', lines: [`Authorization: Bearer ${TOKEN}`] },
  ],
  remediation: [],
};

describe('incidents in SQLite', () => {
  it('freezes findings, series, identity and evidence objects, and reads back from a fresh repository on the same file after the cluster is gone', async () => {
    const file = join(dir, 'restart.sqlite');
    let source: ReturnType<typeof scenarioSource> | undefined = scenarioSource(
      'cross-minor-rollback',
      ROLLBACK_AFTER_WINDOW.fromMs + 120_000,
    );
    const first = new SqliteIncidentRepository(file);
    const created = await createIncident(source, first, { now: () => new Date('2026-11-22T10:00:00Z') });
    expect(isIncidentId(created.id)).toBe(true);
    expect(Buffer.from(created.id, 'base64url')).toHaveLength(16);
    expect(created.url).toBe(`/incidents/${created.id}`);
    const findings = source.health().findings.map((f) => f.id);
    await first.close();
    source = undefined; // the scenario's cluster is removed

    const reopened = new SqliteIncidentRepository(file);
    const incident = incidentSchema.parse(await reopened.get(created.id));
    expect(incident.health.findings.map((f) => f.id)).toStrictEqual(findings);
    expect(incident.health.findings.some((f) => f.id === 'status-write-rejection:ClusterVersion//version:enum')).toBe(
      true,
    );
    expect(incident.cluster).toMatchObject({ id: 'cross-minor-rollback', desiredVersion: '4.13.40' });
    expect(incident.cluster.clusterID).toMatch(/^x-clusterid-\d{10}-x$/);
    expect(incident.createdAt).toBe('2026-11-22T10:00:00.000Z');
    expect(incident.series.samples['status-write-rejection']).toHaveLength(2);
    expect(incident.objects.some((o) => o.kind === 'ClusterVersion')).toBe(true);
    expect(await reopened.get('AAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
    expect(reopened.integrityCheck()).toStrictEqual(['ok']);
    await reopened.close();
  });

  it('stores no Secret data, pull secret, token or last-applied password: neither in the JSON nor in the raw database bytes', async () => {
    const file = join(dir, 'redaction.sqlite');
    const source = scenarioSource('cross-minor-rollback', 11 * 60_000, {
      objects: { secrets, configmaps: [configMap] } as never,
      findings: [leakyFinding],
    });
    const repository = new SqliteIncidentRepository(file);
    const { id } = await createIncident(source, repository);
    const incident = await repository.get(id);
    await repository.close();
    const json = JSON.stringify(incident);
    const raw = Buffer.concat(
      readdirSync(dir)
        .filter((f) => f.startsWith('redaction.sqlite'))
        .map((f) => readFileSync(join(dir, f))),
    );
    for (const secret of [PASSWORD, DOCKERCONFIG, PULL_AUTH, TOKEN, SECRET_VALUE, 'sha256~q7Yx3']) {
      expect(json, secret).not.toContain(secret);
      expect(raw.includes(Buffer.from(secret)), `raw bytes contain ${secret}`).toBe(false);
    }
    const reasons = new Set(incident?.redaction.entries.map((e) => e.reason));
    for (const reason of [
      'credential-field',
      'credential-text',
      'env-credential',
      'authorization',
      'last-applied-configuration',
      'pull-secret',
      'secret-data',
    ]) {
      expect(reasons, reason).toContain(reason);
    }
    expect(incident?.objects.find((o) => (o.metadata as { name: string }).name === 'db')?.data).toStrictEqual({
      password: expect.stringMatching(/^<redacted:secret-data:\d{4}>$/),
    });
    expect(incident?.redaction.rules.length).toBeGreaterThan(0);
  });

  it('obfuscates node names, addresses, domains and the cluster ID with one map over everything it stores', async () => {
    const file = join(dir, 'obfuscation.sqlite');
    const source = scenarioSource('cross-minor-rollback', ROLLBACK_AFTER_WINDOW.fromMs + 120_000);
    const snapshot = source.snapshot();
    const nodes = snapshot.objects.nodes ?? [];
    expect(nodes.length).toBeGreaterThan(0);
    const clusterID = String((snapshot.objects.clusterversions?.[0] as { spec: { clusterID: string } }).spec.clusterID);
    const apiHost = new URL(String(dig(snapshot.objects.infrastructures?.[0], 'status', 'apiServerURL'))).hostname;
    const nodeName = nodes[0].metadata.name;
    const internalIP = String(
      (dig(nodes[0], 'status', 'addresses') as { address: string; type: string }[]).find((a) => a.type === 'InternalIP')
        ?.address,
    );
    const subject = { apiVersion: 'v1', kind: 'Node', name: nodeName };
    const finding: FindingDto = {
      id: `test:Node//${nodeName}`,
      detector: 'install-settling',
      severity: 'warning',
      subject,
      title: `Node ${nodeName} NotReady`,
      summary: `kubelet at ${internalIP} stopped posting status to https://${apiHost}:6443`,
      evidence: [{ kind: 'log', label: 'kubelet', lines: [`${nodeName} ${internalIP} cluster ${clusterID}`] }],
      remediation: [],
    };
    const withFinding = scenarioSource('cross-minor-rollback', ROLLBACK_AFTER_WINDOW.fromMs + 120_000, {
      findings: [finding],
    });
    const repository = new SqliteIncidentRepository(file);
    const { id } = await createIncident(withFinding, repository);
    const incident = (await repository.get(id))!;
    await repository.close();
    const raw = Buffer.concat(
      readdirSync(dir)
        .filter((f) => f.startsWith('obfuscation.sqlite'))
        .map((f) => readFileSync(join(dir, f))),
    );
    for (const original of [nodeName, internalIP, clusterID, apiHost.split('.').slice(1).join('.')]) {
      expect(JSON.stringify(incident), original).not.toContain(original);
      expect(raw.includes(Buffer.from(original)), `raw bytes contain ${original}`).toBe(false);
    }
    const frozen = incident.health.findings.find((f) => f.id.startsWith('test:Node//'))!;
    const nodeToken = frozen.subject.name;
    expect(nodeToken).toMatch(/^x-node-\d{10}-x$/);
    const ipToken = /x-ipv4-\d{10}-x/.exec(frozen.summary)?.[0];
    expect(frozen.title).toBe(`Node ${nodeToken} NotReady`);
    expect(frozen.evidence[0].lines).toStrictEqual([`${nodeToken} ${ipToken} cluster ${incident.cluster.clusterID}`]);
    expect(frozen.summary).toMatch(
      /^kubelet at x-ipv4-\d{10}-x stopped posting status to https:\/\/api\.domain\d{10}:6443$/,
    );
    // The fleet's key for the cluster is kept, so access checks and links still find it.
    expect(incident.cluster.id).toBe('cross-minor-rollback');
    expect(incident.health.cluster.id).toBe('cross-minor-rollback');
    expect(incident.series.clusterId).toBe('cross-minor-rollback');
  });
});
