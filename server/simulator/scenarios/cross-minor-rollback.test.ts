import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { createSimulatedCluster, runScenario } from '../core';
import { ApiStatusError } from '../types';
import { CVO_CONTAINER, CVO_NAMESPACE } from '../controllers/cluster-version-operator';
import { CVO_POD_SELECTOR } from '../controllers/base-cluster';
import {
  ROLLBACK_AFTER_WINDOW,
  ROLLBACK_BEFORE_WINDOW,
  ROLLBACK_CHANNEL_CHANGED_AT_MS,
  crossMinorRollbackScenario,
} from './cross-minor-rollback';
import { MINUTE } from '../objects/time';

interface CvStatus {
  capabilities: { enabledCapabilities: string[] };
  history: { version: string; state: string }[];
  observedGeneration: number;
}

function enumOf(crd: KubeObject | undefined): string[] {
  const versions = (crd?.spec as { versions: { name: string; schema: { openAPIV3Schema: Record<string, unknown> } }[] })
    .versions;
  const schema = versions.find((v) => v.name === 'v1')!.schema.openAPIV3Schema as {
    properties: {
      status: { properties: { capabilities: { properties: { enabledCapabilities: { items: { enum: string[] } } } } } };
    };
  };
  return schema.properties.status.properties.capabilities.properties.enabledCapabilities.items.enum;
}

function start() {
  const cluster = createSimulatedCluster({ seed: 42 });
  runScenario(cluster, crossMinorRollbackScenario);
  return cluster;
}

describe('cross-minor-rollback scenario', () => {
  it('completes 4.13 → 4.14 with the new capabilities enabled before the rollback', () => {
    const cluster = start();
    cluster.clock.advance(ROLLBACK_BEFORE_WINDOW.fromMs + 30_000);
    const cv = cluster.client.get('clusterversions', 'version')!;
    const status = cv.status as CvStatus;
    expect(status.history[0]).toMatchObject({ version: '4.14.27', state: 'Completed' });
    expect(status.history[1]).toMatchObject({ version: '4.13.40', state: 'Completed' });
    for (const capability of ['MachineAPI', 'Build', 'DeploymentConfig', 'ImageRegistry']) {
      expect(status.capabilities.enabledCapabilities).toContain(capability);
    }
    expect(enumOf(cluster.client.get('customresourcedefinitions', 'clusterversions.config.openshift.io'))).toContain(
      'MachineAPI',
    );
    const operators = cluster.client.list('clusteroperators');
    expect(operators.length).toBeGreaterThanOrEqual(30);
    for (const co of operators) {
      const versions = (co.status as { versions: { name: string; version: string }[] }).versions;
      expect(versions.find((v) => v.name === 'operator')?.version).toBe('4.14.27');
    }
  });

  it('rejects every CVO status write after the rollback and freezes ClusterVersion status', () => {
    const cluster = start();
    cluster.clock.advance(ROLLBACK_AFTER_WINDOW.fromMs + MINUTE);
    expect(
      enumOf(cluster.client.get('customresourcedefinitions', 'clusterversions.config.openshift.io')),
    ).not.toContain('MachineAPI');
    const cv = cluster.client.get('clusterversions', 'version')!;
    let error: unknown;
    try {
      cluster.as('cluster-version-operator').updateStatus('clusterversions', cv);
      cluster
        .as('cluster-version-operator')
        .updateStatus('clusterversions', { ...cv, status: { ...(cv.status as object), observedGeneration: 99 } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiStatusError);
    const status = (error as ApiStatusError).status;
    expect(status.code).toBe(422);
    expect(status.message).toMatch(/^ClusterVersion\.config\.openshift\.io "version" is invalid: /);
    expect(status.message).toContain('Unsupported value: "MachineAPI"');

    const pod = cluster.client.list('pods', { namespace: CVO_NAMESPACE, labelSelector: CVO_POD_SELECTOR })[0];
    const log = cluster.logs.read(CVO_NAMESPACE, pod.metadata.name, CVO_CONTAINER);
    const lines = log
      .split('\n')
      .filter((line) =>
        line.includes(
          'Error handling openshift-cluster-version/version: ClusterVersion.config.openshift.io "version" is invalid',
        ),
      );
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines[0]).toMatch(/^I\d{4} \d{2}:\d{2}:\d{2}\.\d{6} {7}1 cvo\.go:\d+\] Error handling /);
    expect(lines[0]).toContain('Unsupported value: "MachineAPI"');

    const frozen = JSON.stringify(cluster.client.get('clusterversions', 'version')!.status);
    cluster.clock.advance(ROLLBACK_CHANNEL_CHANGED_AT_MS - ROLLBACK_AFTER_WINDOW.fromMs + 60 * MINUTE);
    const later = cluster.client.get('clusterversions', 'version')!;
    expect(JSON.stringify(later.status)).toBe(frozen);
    expect((later.status as CvStatus).history[0]).toMatchObject({ version: '4.13.40', state: 'Partial' });
    expect((later.spec as { channel: string }).channel).toBe('stable-4.14');
    const statusWrites = (later.metadata.managedFields ?? []).filter(
      (entry) => entry.manager === 'cluster-version-operator' && entry.subresource === 'status',
    );
    for (const entry of statusWrites) expect(Date.parse(entry.time!)).toBeLessThan(cluster.clock.now() - 60 * MINUTE);
  });

  it('is deterministic for a seed', () => {
    const a = start();
    const b = start();
    a.clock.advance(20 * MINUTE);
    b.clock.advance(20 * MINUTE);
    for (const resource of ['clusterversions', 'clusteroperators', 'pods', 'featuregates'] as const) {
      expect(JSON.stringify(a.client.list(resource))).toBe(JSON.stringify(b.client.list(resource)));
    }
  });
});
