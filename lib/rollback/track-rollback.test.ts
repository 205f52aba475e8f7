import { describe, expect, it } from 'vitest';
import {
  ROLLBACK_AFTER_WINDOW,
  ROLLBACK_BEFORE_WINDOW,
  ROLLBACK_FROM_VERSION,
} from '@/server/simulator/scenarios/cross-minor-rollback';
import { assess, scenarioSnapshot } from '@/server/testing/rollback-fixtures';
import { planRollback } from './plan-rollback';
import { trackRollback } from './track-rollback';

describe('trackRollback — cross-minor-rollback as the simulated CVO runs it', () => {
  const before = scenarioSnapshot('cross-minor-rollback', ROLLBACK_BEFORE_WINDOW.fromMs + 60_000);
  const healthBefore = assess(before.snapshot, before.now, 'cross-minor-rollback');
  const plan = planRollback(before.snapshot, healthBefore, {
    target: ROLLBACK_FROM_VERSION,
    now: before.now,
    acceptCrossMinorRisk: true,
  })!;

  it('starts with only the request pending', () => {
    const tracking = trackRollback(plan, healthBefore);
    expect(tracking.steps.map((s) => [s.id, s.status])).toStrictEqual([
      ['requested', 'active'],
      ['history-entry', 'pending'],
      ['operators', 'pending'],
      ['completed', 'pending'],
      ['findings', 'pending'],
    ]);
    expect(tracking.finished).toBe(false);
  });

  it('after the rollback: requested and recorded, operators moving, and the status-write rejection appears', () => {
    const after = scenarioSnapshot('cross-minor-rollback', ROLLBACK_AFTER_WINDOW.fromMs + 5 * 60_000);
    const tracking = trackRollback(plan, assess(after.snapshot, after.now, 'cross-minor-rollback'));
    const status = Object.fromEntries(tracking.steps.map((s) => [s.id, s.status]));
    expect(status).toMatchObject({
      requested: 'done',
      'history-entry': 'done',
      completed: 'pending',
      findings: 'failed',
    });
    expect(tracking.steps.find((s) => s.id === 'findings')?.detail).toMatch(
      /ClusterVersion status writes (are being|will be) rejected/,
    );
    expect(tracking.steps.find((s) => s.id === 'operators')?.detail).toMatch(/^\d+ of \d+ operators report 4\.13\.40/);
    expect(tracking.finished).toBe(true);
  });
});
