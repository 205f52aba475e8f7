import { describe, expect, it } from 'vitest';
import { LoopTimer, loopAwareTimeout } from './loop-timer';

function blockLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

function fired(ms: number): { at: Promise<number>; cancel: () => void } {
  let cancel = () => undefined as void;
  const at = new Promise<number>((resolve) => {
    cancel = loopAwareTimeout(() => resolve(performance.now()), ms);
  });
  return { at, cancel };
}

describe('loopAwareTimeout', () => {
  it('fires after its delay when the loop is free', async () => {
    const start = performance.now();
    const elapsed = (await fired(100).at) - start;
    expect(elapsed).toBeGreaterThanOrEqual(99);
    expect(elapsed).toBeLessThan(1_000);
  });

  it('does not count the time the loop was blocked, but fires within twice its delay however late it is', async () => {
    const start = performance.now();
    const timer = fired(200);
    blockLoop(500);
    const elapsed = (await timer.at) - start;
    // due at 200 ms, noticed at 500 ms: re-armed for the 200 ms it may still extend, not fired at once
    expect(elapsed).toBeGreaterThanOrEqual(690);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('is cancelled before and after a re-arm', async () => {
    let calls = 0;
    const cancelEarly = loopAwareTimeout(() => (calls += 1), 50);
    cancelEarly();
    const cancelLate = loopAwareTimeout(() => (calls += 1), 50);
    blockLoop(120);
    await new Promise((resolve) => setTimeout(resolve, 10));
    cancelLate();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(calls).toBe(0);
  });
});

describe('LoopTimer.refresh', () => {
  function timer(ms: number): { at: Promise<number>; timer: LoopTimer } {
    let made: LoopTimer | undefined;
    const at = new Promise<number>((resolve) => {
      made = new LoopTimer(() => resolve(performance.now()), ms);
    });
    return { at, timer: made! };
  }

  it('restarts the full deadline from now on the same timer', async () => {
    const start = performance.now();
    const t = timer(200);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const refreshedAt = performance.now();
    t.timer.refresh();
    const at = await t.at;
    expect(at - refreshedAt).toBeGreaterThanOrEqual(199);
    expect(at - start).toBeGreaterThanOrEqual(319);
  });

  it('restarts the full deadline when refreshed during an extension for lateness', async () => {
    const t = timer(200);
    blockLoop(300);
    // the timer fires late and re-arms for the lateness it may still extend (at most 200 ms)
    await new Promise((resolve) => setTimeout(resolve, 30));
    const refreshedAt = performance.now();
    t.timer.refresh();
    const at = await t.at;
    expect(at - refreshedAt).toBeGreaterThanOrEqual(199);
  });

  it('keeps the lateness extension after a refresh', async () => {
    const t = timer(200);
    t.timer.refresh();
    const start = performance.now();
    blockLoop(500);
    // due 200 ms after the refresh, noticed at 500 ms: re-armed for 200 ms more, not fired at once
    expect((await t.at) - start).toBeGreaterThanOrEqual(690);
  });

  it('does not revive a timer that fired or was cancelled', async () => {
    let calls = 0;
    const fired = new LoopTimer(() => (calls += 1), 20);
    await until(() => calls === 1);
    fired.refresh();
    const cancelled = new LoopTimer(() => (calls += 1), 20);
    cancelled.cancel();
    cancelled.refresh();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toBe(1);
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
