/** One contract for both session stores; two repository instances on one database stand for two replicas. */
import { expect, it } from 'vitest';
import { describeOnEveryDatabase } from '@/server/testing/every-database';
import { PostgresSessionRepository } from './postgres-session-repository';
import { sessionKey, type SessionRecord, type SessionRepository } from './session-repository';
import { SqliteSessionRepository } from './sqlite-session-repository';

function record(user: SessionRecord['user'], createdAt: string, expiresAt: string): SessionRecord {
  return { user, createdAt, expiresAt, sealedToken: `v1.sealed-for-${user.name}`, reviewedAt: createdAt };
}

describeOnEveryDatabase<SessionRepository>(
  'session repository contract',
  {
    sqlite: (file) => new SqliteSessionRepository(file),
    postgres: (url) => new PostgresSessionRepository(url),
  },
  (open) => {
    it('a session made on one instance is valid on another until it expires, and logout ends it everywhere', async () => {
      const one = open();
      const other = open();
      const key = sessionKey('cookie-value-1');
      const user = {
        name: 'sre',
        groups: ['sre', 'system:authenticated'],
        uid: 'u-1',
        extra: { 'scopes.authorization.openshift.io': ['user:info', 'user:check-access'] },
      };
      const made = record(user, '2026-11-25T10:00:00.000Z', '2026-11-26T10:00:00.000Z');
      await one.create(key, made);
      expect(await other.get(key, new Date('2026-11-25T12:00:00Z'))).toEqual(made);
      expect(await other.get(key, new Date('2026-11-26T10:00:00Z'))).toBeUndefined();
      expect(await other.get(sessionKey('cookie-value-2'), new Date('2026-11-25T12:00:00Z'))).toBeUndefined();
      await other.delete(key);
      expect(await one.get(key, new Date('2026-11-25T12:00:00Z'))).toBeUndefined();
    });

    it('records a review: the groups the cluster now reports and when, seen by every instance', async () => {
      const one = open();
      const other = open();
      const key = sessionKey('cookie-value-3');
      const dev = { name: 'dev', groups: ['catalog-team', 'system:authenticated'] };
      await one.create(key, record(dev, '2026-11-25T10:00:00.000Z', '2026-11-25T22:00:00.000Z'));
      await other.reviewed(key, { name: 'dev', groups: ['system:authenticated'] }, '2026-11-25T10:04:00.000Z');
      expect(await one.get(key, new Date('2026-11-25T10:05:00Z'))).toMatchObject({
        user: { name: 'dev', groups: ['system:authenticated'] },
        reviewedAt: '2026-11-25T10:04:00.000Z',
        sealedToken: 'v1.sealed-for-dev',
      });
    });

    it('purges expired sessions only', async () => {
      const repository = open();
      const user = { name: 'dev', groups: ['catalog-team'] };
      await repository.create(sessionKey('old'), record(user, '2026-11-20T00:00:00.000Z', '2026-11-21T00:00:00.000Z'));
      await repository.create(sessionKey('new'), record(user, '2026-11-25T00:00:00.000Z', '2026-11-26T00:00:00.000Z'));
      expect(await repository.purgeExpired(new Date('2026-11-25T01:00:00Z'))).toBe(1);
      expect(await repository.get(sessionKey('new'), new Date('2026-11-25T01:00:00Z'))).toMatchObject({ user });
    });
  },
);
