/**
 * The first sync holds no timer: every step of it (a source synced, refused, unreachable) arrives as a source event
 * through `delayFor`, and each evaluation through `evaluated`. Fake timers prove nothing is left to poll.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_SYNC, FirstSync } from './first-sync';

describe('a first sync', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The engine's view of its sources, as plain flags the test moves. */
  function sources() {
    return { always: false, all: false };
  }

  it('arms no timer, and settles on the event of the source that failed last', () => {
    const state = sources();
    const firstSync = new FirstSync({ alwaysSettled: () => state.always, allSettled: () => state.all });
    let told = 0;
    firstSync.onSettled(() => (told += 1));
    expect(firstSync.alwaysSettled()).toBe(false);
    firstSync.start();
    expect(vi.getTimerCount()).toBe(0);
    expect(firstSync.alwaysSettled()).toBe(false);

    // The first source answers: evaluated at once; the next ones wait for the settling (or the bound).
    expect(firstSync.delayFor(5)).toBe(5);
    firstSync.evaluating();
    firstSync.evaluated();
    vi.advanceTimersByTime(100);
    expect(firstSync.delayFor(5)).toBe(FIRST_SYNC.boundMs - 100);

    // The last always-tier source is refused: its status event ends the coalescing, evaluated at once.
    state.always = true;
    state.all = true;
    expect(firstSync.delayFor(5)).toBe(5);
    expect(firstSync.alwaysSettled()).toBe(true);
    expect(told).toBe(0);
    firstSync.evaluating();
    firstSync.evaluated();
    expect(told).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tells a listener added late once the active tier it started settled, on that tier’s event', () => {
    const state = sources();
    const firstSync = new FirstSync({ alwaysSettled: () => state.always, allSettled: () => state.all });
    firstSync.start();
    state.always = true;
    expect(firstSync.delayFor(5)).toBe(5);
    firstSync.evaluating();
    firstSync.evaluated();
    let told = 0;
    firstSync.onSettled(() => (told += 1));
    expect(told).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    // The active tier's last source answers: its event tells, before any evaluation.
    state.all = true;
    expect(firstSync.delayFor(5)).toBe(5);
    expect(told).toBe(1);
  });

  it('stops coalescing after its bound even while a source is still pending', () => {
    const state = sources();
    const firstSync = new FirstSync({ alwaysSettled: () => state.always, allSettled: () => state.all });
    firstSync.start();
    expect(firstSync.delayFor(5)).toBe(5);
    firstSync.evaluating();
    firstSync.evaluated();
    expect(firstSync.delayFor(5)).toBe(FIRST_SYNC.boundMs);
    vi.advanceTimersByTime(FIRST_SYNC.boundMs);
    expect(firstSync.delayFor(5)).toBe(5);
  });

  it('an object change looks at no source: only a status change can settle the first sync', () => {
    const state = sources();
    let looks = 0;
    const firstSync = new FirstSync({
      alwaysSettled: () => (looks += 1) > 0 && state.always,
      allSettled: () => (looks += 1) > 0 && state.all,
    });
    firstSync.onSettled(() => undefined);
    firstSync.start();
    expect(firstSync.delayFor(5)).toBe(5);
    firstSync.evaluating();
    firstSync.evaluated();
    const before = looks;
    for (let i = 0; i < 1_000; i += 1) firstSync.delayFor(5, false);
    expect(looks).toBe(before);
    // Still coalescing, then the status event that settles it ends the window at once.
    expect(firstSync.delayFor(5, false)).toBe(FIRST_SYNC.boundMs);
    state.always = true;
    expect(firstSync.delayFor(5)).toBe(5);
    expect(firstSync.delayFor(5, false)).toBe(5);
  });
});
