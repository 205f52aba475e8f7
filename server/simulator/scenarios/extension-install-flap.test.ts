import { describe, expect, it } from 'vitest';
import { createSimulatedCluster, runScenario } from '../core';
import { MINUTE } from '../objects/time';
import {
  FLAP_EXTENSION,
  FLAP_FIRST_ATTEMPT_AT_MS,
  FLAP_ROOT_CAUSE,
  FLAP_TRANSIENT_MESSAGES,
  extensionInstallFlapScenario,
} from './extension-install-flap';
import { resolveScenarios } from '../fleet';
import { XSS_PROBE_EXTENSION } from '../objects/xss-corpus';

interface Cond {
  type: string;
  status: string;
  reason: string;
  message: string;
}

function start(seed = 4) {
  const cluster = createSimulatedCluster({ seed });
  runScenario(cluster, extensionInstallFlapScenario);
  return cluster;
}

describe('extension-install-flap scenario', () => {
  it('keeps the root cause only in the transition history: 3 writes per step, exponential backoff', () => {
    const cluster = start();
    cluster.clock.advance(FLAP_FIRST_ATTEMPT_AT_MS - 1000);
    const transitions: { at: number; message: string }[] = [];
    let last = '';
    for (let t = 0; t < 12 * MINUTE; t += 250) {
      cluster.clock.advance(250);
      const ext = cluster.client.get('clusterextensions', FLAP_EXTENSION);
      const progressing = ((ext?.status as { conditions?: Cond[] } | undefined)?.conditions ?? []).find(
        (c) => c.type === 'Progressing',
      );
      if (progressing && progressing.message !== last) {
        last = progressing.message;
        transitions.push({ at: cluster.clock.now(), message: progressing.message });
        expect(progressing).toMatchObject({ status: 'True', reason: 'Retrying' });
      }
    }
    expect(transitions.length).toBeGreaterThanOrEqual(15);
    const steps: { at: number; message: string }[][] = [];
    for (const transition of transitions) {
      const current = steps[steps.length - 1];
      if (current && transition.at - current[current.length - 1].at < 5000) current.push(transition);
      else steps.push([transition]);
    }
    for (const step of steps.slice(0, -1)) {
      expect(step.map((t) => t.message)).toEqual([FLAP_ROOT_CAUSE, ...FLAP_TRANSIENT_MESSAGES]);
      expect(step[2].at - step[0].at).toBeLessThan(5000);
    }
    const gaps = steps.slice(1).map((step, index) => step[0].at - steps[index][0].at);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThan(gaps[i - 1]);
    const ext = cluster.client.get('clusterextensions', FLAP_EXTENSION)!;
    const conditions = (ext.status as { conditions: Cond[] }).conditions;
    expect(conditions.find((c) => c.type === 'Progressing')?.message).toContain('is being terminated');
    expect(conditions.find((c) => c.type === 'Installed')).toMatchObject({ status: 'False' });
  });

  it('is deterministic for a seed', () => {
    const a = start(8);
    const b = start(8);
    a.clock.advance(20 * MINUTE);
    b.clock.advance(20 * MINUTE);
    for (const resource of ['clusterextensions', 'pods', 'clusteroperators'] as const) {
      expect(JSON.stringify(a.client.list(resource))).toBe(JSON.stringify(b.client.list(resource)));
    }
  });

  it('carries the XSS probe extension only when a test asks for it, never in the default fleet', () => {
    const extensions = (xssProbe: boolean) => {
      const cluster = createSimulatedCluster({ seed: 4 });
      runScenario(cluster, resolveScenarios(['extension-install-flap'], { xssProbe })[0]);
      cluster.clock.advance(2 * MINUTE);
      return cluster.client
        .list('clusterextensions')
        .map((e) => e.metadata.name)
        .sort();
    };
    expect(extensions(false)).toEqual([FLAP_EXTENSION]);
    expect(extensions(true)).toEqual([FLAP_EXTENSION, XSS_PROBE_EXTENSION]);
  });
});
