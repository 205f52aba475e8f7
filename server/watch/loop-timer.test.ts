import { describe, expect, it } from 'vitest';
import { loopAwareTimeout } from './loop-timer';

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
