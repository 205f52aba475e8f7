import { describe, expect, it } from 'vitest';
import {
  ROLLBACK_AFTER_WINDOW,
  ROLLBACK_BEFORE_WINDOW,
  ROLLBACK_FROM_VERSION,
} from '@/server/simulator/scenarios/cross-minor-rollback';
import { assess, scenarioSnapshot } from '@/server/testing/rollback-fixtures';
import { rollbackPlanSchema } from '@/lib/api/rollback-dto';
import { planRollback } from './plan-rollback';

function planAt(
  scenario: Parameters<typeof scenarioSnapshot>[0],
  atMs: number,
  target: string,
  acceptCrossMinorRisk = false,
) {
  const { snapshot, now } = scenarioSnapshot(scenario, atMs);
  const health = assess(snapshot, now, scenario);
  const plan = planRollback(snapshot, health, { target, now, acceptCrossMinorRisk });
  if (!plan) throw new Error('no plan');
  return rollbackPlanSchema.parse(plan);
}

describe('planRollback — cross-minor-rollback before the rollback (4.14.27 with the 4.14 CRD)', () => {
  const at = ROLLBACK_BEFORE_WINDOW.fromMs + 60_000;

  it('refuses 4.13: capability block naming exactly the four capabilities, the CVO rule blocks too', () => {
    const plan = planAt('cross-minor-rollback', at, ROLLBACK_FROM_VERSION);
    expect(plan.allowed).toBe(false);
    expect(plan.current.desiredVersion).toBe('4.14.27');
    expect(plan.target).toMatchObject({ version: '4.13.40', inHistory: true, release: '4.13' });
    expect(plan.target.image).toMatch(/@sha256:[0-9a-f]{64}$/);
    const capabilities = plan.checks.find((c) => c.id === 'capabilities');
    expect(capabilities?.status).toBe('block');
    const rejected = capabilities?.evidence.find((e) => e.label === 'Values the target CRD will reject')
      ?.value as string[];
    expect([...rejected].sort()).toStrictEqual(['Build', 'DeploymentConfig', 'ImageRegistry', 'MachineAPI']);
    for (const name of ['MachineAPI', 'Build', 'DeploymentConfig', 'ImageRegistry'])
      expect(capabilities?.title).toContain(name);
    expect(capabilities?.detail).toContain('the CVO will be unable to write status');
    expect(plan.checks.find((c) => c.id === 'cvo-rules')?.status).toBe('block');
    expect(plan.checks.map((c) => c.id)).toStrictEqual([
      'cvo-rules',
      'capabilities',
      'featuregate',
      'catalog',
      'installs',
      'operators',
      'pod-latency',
    ]);
    expect(plan.commands).toStrictEqual([]);
    expect(plan.candidates.find((c) => c.previous)?.version).toBe('4.13.40');
  });

  it('with the cross-minor risk accepted: still not allowed, and the command is the forced one with its reason', () => {
    const plan = planAt('cross-minor-rollback', at, ROLLBACK_FROM_VERSION, true);
    expect(plan.allowed).toBe(false);
    expect(plan.checks.find((c) => c.id === 'cvo-rules')?.status).toBe('warn');
    expect(plan.commands[0]).toBe(`oc adm upgrade --to-image=${plan.target.image} --allow-explicit-upgrade --force`);
    expect(plan.notes.join(' ')).toContain(
      '--force: the ClusterVersionRollback precondition rejects cross-minor rollbacks',
    );
  });

  it('reads the rest of the simulated cluster: FeatureGate keeps 4.13.40, operators healthy, no OLMv1 on 4.14', () => {
    const plan = planAt('cross-minor-rollback', at, ROLLBACK_FROM_VERSION);
    expect(plan.direction).toBe('rollback');
    const status = Object.fromEntries(plan.checks.map((c) => [c.id, c.status]));
    expect(status).toMatchObject({
      featuregate: 'pass',
      installs: 'pass',
      operators: 'pass',
      catalog: 'pass',
      'pod-latency': 'warn',
    });
    // OLMv1 does not exist on 4.13/4.14 with the Default feature set: no catalogd or operator-controller Deployment.
    expect(plan.checks.find((c) => c.id === 'catalog')?.title).toBe('No OLMv1 on this release');
  });
});

describe('planRollback at other phases', () => {
  it('steady: a z-stream target passes the capability check', () => {
    const { snapshot, now } = scenarioSnapshot('steady', 60_000);
    const health = assess(snapshot, now, 'steady');
    const current = health.cluster.desiredVersion ?? '';
    const zstream = current.replace(/\.(\d+)$/, (_, z: string) => `.${Math.max(0, Number(z) - 1)}`);
    const plan = planRollback(snapshot, health, { target: zstream, now });
    expect(plan?.checks.find((c) => c.id === 'capabilities')?.status).toBe('pass');
  });

  it('during the 4.14 update: the rollback to 4.13 is blocked while Progressing', () => {
    const plan = planAt('cross-minor-rollback', 5 * 60_000, ROLLBACK_FROM_VERSION);
    expect(plan.current.progressing).toBe(true);
    expect(plan.allowed).toBe(false);
  });

  it('after the rollback: 4.13.40 is already requested and the capability block remains', () => {
    const plan = planAt('cross-minor-rollback', ROLLBACK_AFTER_WINDOW.fromMs + 120_000, ROLLBACK_FROM_VERSION);
    expect(plan.checks.find((c) => c.id === 'cvo-rules')?.title).toBe('4.13.40 is already the desired version');
    expect(plan.checks.find((c) => c.id === 'capabilities')?.status).toBe('block');
    expect(plan.commands).toStrictEqual(['oc adm upgrade status']);
  });

  it("after the rollback: 4.14.27 is a roll-forward, named as one, with an update's checks and its command", () => {
    const plan = planAt('cross-minor-rollback', ROLLBACK_AFTER_WINDOW.fromMs + 20 * 60_000, '4.14.27');
    expect(plan.direction).toBe('roll-forward');
    const cvo = plan.checks.find((c) => c.id === 'cvo-rules');
    expect(cvo).toMatchObject({ status: 'pass', title: 'Roll-forward 4.13.40 → 4.14.27: an update, not a rollback' });
    expect(plan.checks.find((c) => c.id === 'capabilities')?.status).toBe('pass');
    const forward = `^oc adm upgrade --to-image=${plan.target.image} --allow-explicit-upgrade( |$)`;
    expect(plan.commands[0]).toMatch(new RegExp(forward));
    expect(plan.commands[0]).not.toContain('--force');
    expect(plan.notes.join(' ')).toContain('A roll-forward to 4.14.27');
    // The CVO cannot write status while the 4.13 CRD rejects the enabled capabilities: health is not verifiable.
    const operators = plan.checks.find((c) => c.id === 'operators');
    expect(operators).toMatchObject({
      status: 'warn',
      title: 'Control plane health cannot be verified: the CVO cannot report',
    });
    expect(plan.allowed).toBe(true);
  });

  it('after the rollback: a rollback target fails the control-plane check while status is frozen', () => {
    const plan = planAt('cross-minor-rollback', ROLLBACK_AFTER_WINDOW.fromMs + 20 * 60_000, '4.13.39');
    expect(plan.direction).toBe('rollback');
    expect(plan.checks.find((c) => c.id === 'operators')?.status).toBe('block');
  });

  it('rejects a target that is not a release version', () => {
    const { snapshot, now } = scenarioSnapshot('steady', 0);
    expect(planRollback(snapshot, assess(snapshot, now), { target: 'latest', now })).toBeUndefined();
  });
});
