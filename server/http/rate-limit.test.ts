import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  it('allows a burst of capacity, then refuses with the seconds until a token is back', () => {
    let now = 0;
    const limiter = new RateLimiter({ capacity: 3, refillPerSecond: 0.5 }, () => now);
    expect([1, 2, 3].map(() => limiter.take('alice').ok)).toEqual([true, true, true]);
    expect(limiter.take('alice')).toEqual({ ok: false, retryAfterSeconds: 2 });
    expect(limiter.take('bob').ok).toBe(true);
    now = 2_000;
    expect(limiter.take('alice').ok).toBe(true);
    expect(limiter.take('alice').ok).toBe(false);
  });

  it('forgets the least recently used caller first, never everyone at once', () => {
    const limiter = new RateLimiter({ capacity: 1, refillPerSecond: 0.001, maxKeys: 2 }, () => 0);
    limiter.take('a');
    limiter.take('b');
    limiter.take('a');
    limiter.take('c');
    expect(limiter.size).toBe(2);
    expect(limiter.take('a').ok).toBe(false);
    expect(limiter.take('b').ok).toBe(true);
  });

  it('peeks at what a take would answer without taking a token', () => {
    let now = 0;
    const limiter = new RateLimiter({ capacity: 1, refillPerSecond: 0.5 }, () => now);
    expect(limiter.peek('alice')).toEqual({ ok: true });
    expect(limiter.peek('alice')).toEqual({ ok: true });
    expect(limiter.size).toBe(0);
    limiter.take('alice');
    expect(limiter.peek('alice')).toEqual({ ok: false, retryAfterSeconds: 2 });
    now = 2_000;
    expect(limiter.peek('alice')).toEqual({ ok: true });
    expect(limiter.take('alice').ok).toBe(true);
  });

  it('rejects settings that would never admit anyone', () => {
    expect(() => new RateLimiter({ capacity: 0, refillPerSecond: 1 })).toThrow(RangeError);
  });
});
