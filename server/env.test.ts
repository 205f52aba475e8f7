import { afterEach, describe, expect, it } from 'vitest';
import { authEnv, publicUrl } from './env';

const saved = process.env.UPDATE_HEALTH_PUBLIC_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.UPDATE_HEALTH_PUBLIC_URL;
  else process.env.UPDATE_HEALTH_PUBLIC_URL = saved;
});

describe('UPDATE_HEALTH_PUBLIC_URL', () => {
  it('is the URL when set, and unset when empty (the deploy ConfigMap ships it empty)', () => {
    process.env.UPDATE_HEALTH_PUBLIC_URL = 'https://update-health.apps.example.com';
    expect(publicUrl()).toBe('https://update-health.apps.example.com');
    expect(authEnv().UPDATE_HEALTH_PUBLIC_URL).toBe('https://update-health.apps.example.com');
    process.env.UPDATE_HEALTH_PUBLIC_URL = '';
    expect(publicUrl()).toBeUndefined();
    expect(authEnv().UPDATE_HEALTH_PUBLIC_URL).toBeUndefined();
  });

  it('names the variable when it is not a URL', () => {
    process.env.UPDATE_HEALTH_PUBLIC_URL = 'update-health.apps.example.com';
    expect(() => publicUrl()).toThrow(/UPDATE_HEALTH_PUBLIC_URL must be a URL/);
    expect(() => authEnv()).toThrow(/UPDATE_HEALTH_PUBLIC_URL/);
  });
});
