import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { fixture } from '@/server/testing/rollback-fixtures';
import { rollbackCommands } from './rollback-commands';
import { resolveTarget } from './rollback-context';

const cv = (name: string): KubeObject => fixture(`oc-upgrade/status/${name}-cv.yaml`);
const commandsFor = (object: KubeObject, version: string, accept = false) =>
  rollbackCommands(object, resolveTarget(object, version)!, accept);

function settled(object: KubeObject): KubeObject {
  const copy = structuredClone(object);
  const status = copy.status as { history: { state: string }[]; conditions: { type: string; status: string }[] };
  status.history[0].state = 'Completed';
  for (const c of status.conditions) if (c.type === 'Progressing' || c.type === 'Failing') c.status = 'False';
  return copy;
}

describe('rollbackCommands (real ClusterVersion captures)', () => {
  it('uses `oc adm upgrade rollback` for the previous z-stream entry once settled', () => {
    expect(commandsFor(settled(cv('4.14.1-paused-worker-pool')), '4.14.0').commands).toStrictEqual([
      'oc adm upgrade rollback',
      'oc adm upgrade status',
    ]);
  });

  it('retargets a degraded update in flight with --allow-upgrade-with-warnings, image from history', () => {
    const object = cv('4.14.1-degraded');
    const image = (object.status as { history: { image: string }[] }).history[1].image;
    const { commands, notes } = commandsFor(object, '4.14.0-rc.3');
    expect(commands[0]).toBe(
      `oc adm upgrade --to-image=${image} --allow-explicit-upgrade --allow-upgrade-with-warnings`,
    );
    expect(notes.join(' ')).toContain('Progressing=True and Failing=True');
  });

  it('adds --force for a cross-minor previous entry only once the risk is accepted', () => {
    const object = cv('4.16.0-compact');
    expect(commandsFor(object, '4.16.0-0.nightly-2024-08-01-082745').commands).toStrictEqual([]);
    expect(commandsFor(object, '4.16.0-0.nightly-2024-08-01-082745', true).commands[0]).toMatch(
      /^oc adm upgrade --to-image=\S+@sha256:[0-9a-f]{64} --allow-explicit-upgrade --allow-upgrade-with-warnings --force$/,
    );
  });

  it('offers nothing for a lower version that is not the previous entry, and a placeholder for a typed roll forward', () => {
    expect(commandsFor(cv('not-upgrading'), '4.13.2').commands).toStrictEqual([]);
    const forward = commandsFor(cv('not-upgrading'), '4.14.9');
    expect(forward.commands[0]).toBe(
      'oc adm upgrade --to-image=<release image of 4.14.9 by digest> --allow-explicit-upgrade',
    );
    expect(forward.notes.join(' ')).toContain('never a tag');
  });
});
