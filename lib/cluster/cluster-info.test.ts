import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { clusterInfo } from './cluster-info';

const cv = load(readFileSync('server/fixtures/oc-upgrade/status/4.14.1-degraded-cv.yaml', 'utf8')) as KubeObject;

describe('clusterInfo', () => {
  it('takes the current version from the newest Completed history entry of a real ClusterVersion', () => {
    const info = clusterInfo('c1', 'c1', cv);
    expect(info.desiredVersion).toBe('4.14.1');
    expect(info.version).toBe('4.14.0-rc.3');
    expect(info.history[0]).toMatchObject({ version: '4.14.1', state: 'Partial', completionTime: null });
    expect(info.channel).toBe((cv.spec as { channel?: string }).channel ?? null);
  });

  it('falls back to the desired version when nothing completed, and copes with no ClusterVersion', () => {
    const partialOnly = structuredClone(cv);
    (partialOnly.status as { history: unknown[] }).history = [{ version: '4.15.0', state: 'Partial', image: 'x' }];
    expect(clusterInfo('c', 'c', partialOnly).version).toBe('4.14.1');
    expect(clusterInfo('c', 'c', undefined)).toEqual({
      id: 'c',
      name: 'c',
      version: null,
      desiredVersion: null,
      channel: null,
      history: [],
    });
  });
});
