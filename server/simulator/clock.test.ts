import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock, startSharedClockDriver, type SharedClockDriver } from './clock';

const START = Date.UTC(2026, 0, 1);

describe('the shared clock driver', () => {
  let shared: SharedClockDriver | undefined;
  afterEach(() => shared?.stop());

  it('advances every clock it drives from one timer, each at its own speed', async () => {
    shared = startSharedClockDriver({ tickMs: 10 });
    const clocks = Array.from({ length: 50 }, () => new ManualClock(START));
    const fired = clocks.map(() => 0);
    clocks.forEach((clock, i) => clock.setInterval(() => (fired[i] += 1), 5));
    for (const [i, clock] of clocks.entries()) shared.add(clock, i === 0 ? 100 : 1);
    expect(shared.size()).toBe(50);
    await vi.waitFor(() => expect(Math.min(...clocks.map((clock) => clock.now() - START))).toBeGreaterThan(50), {
      timeout: 10_000,
    });
    expect(fired.every((count) => count > 0)).toBe(true);
    // The 100× clock ran ahead of the 1× ones it shares the timer with.
    expect(clocks[0].now() - START).toBeGreaterThan((clocks[1].now() - START) * 10);
  });

  it('pauses, resumes and stops one clock without touching the others', async () => {
    shared = startSharedClockDriver({ tickMs: 10 });
    const [paused, running, stopped] = [new ManualClock(START), new ManualClock(START), new ManualClock(START)];
    const drivers = [paused, running, stopped].map((clock) => shared!.add(clock, 1));
    drivers[0].pause();
    drivers[2]();
    expect(shared.size()).toBe(2);
    const [pausedAt, stoppedAt] = [paused.now(), stopped.now()];
    await vi.waitFor(() => expect(running.now() - START).toBeGreaterThan(100), { timeout: 10_000 });
    expect(paused.now()).toBe(pausedAt);
    expect(stopped.now()).toBe(stoppedAt);
    expect(drivers[0].isPaused()).toBe(true);
    drivers[0].resume();
    const resumedFrom = running.now();
    await vi.waitFor(() => expect(paused.now()).toBeGreaterThan(pausedAt), { timeout: 10_000 });
    // Real time spent paused is not caught up.
    expect(paused.now() - pausedAt).toBeLessThanOrEqual(running.now() - START - (resumedFrom - START) + 1);
  });
});
