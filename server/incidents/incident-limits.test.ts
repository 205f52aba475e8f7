import { describe, expect, it } from 'vitest';
import { IncidentLimitError, IncidentLimits, isIncidentLimitError } from './incident-limits';

const SETTINGS = { burst: 3, perHour: 60, dailyCount: 100, dailyBytes: 10 ** 9, maxBytes: 10 ** 8 };

describe('incident rate limit', () => {
  it('gives each user their own burst, then refuses with the seconds until the next one, and refills', () => {
    let now = 0;
    const limits = new IncidentLimits(SETTINGS, () => now);
    for (let i = 0; i < 3; i += 1) limits.admit('alice');
    let refused: unknown;
    try {
      limits.admit('alice');
    } catch (error) {
      refused = error;
    }
    expect(isIncidentLimitError(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 60 });
    expect(() => limits.admit('bob')).not.toThrow();
    expect(() => limits.admit(null)).not.toThrow();
    now += 60_000;
    expect(() => limits.admit('alice')).not.toThrow();
    expect(() => limits.admit('alice')).toThrow(IncidentLimitError);
  });

  it("recognizes a limit error by name, as another bundle's copy of the class would be", () => {
    const foreign = Object.assign(new Error('x'), { name: 'IncidentLimitError', code: 'rate_limited' });
    expect(isIncidentLimitError(foreign)).toBe(true);
    expect(isIncidentLimitError(new Error('x'))).toBe(false);
  });
});

describe('incident settings', () => {
  it('default when unset and name a malformed key', async () => {
    const { incidentEnv } = await import('@/server/env');
    const saved = { ...process.env };
    try {
      for (const key of Object.keys(process.env)) if (key.startsWith('UPDATE_HEALTH_INCIDENT')) delete process.env[key];
      expect(incidentEnv()).toMatchObject({
        UPDATE_HEALTH_INCIDENT_BURST: 10,
        UPDATE_HEALTH_INCIDENT_RETENTION_DAYS: 90,
      });
      process.env.UPDATE_HEALTH_INCIDENT_RETENTION_DAYS = 'forever';
      expect(() => incidentEnv()).toThrow(/UPDATE_HEALTH_INCIDENT_RETENTION_DAYS/);
    } finally {
      process.env = saved;
    }
  });
});
