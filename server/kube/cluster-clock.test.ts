import { describe, expect, it } from 'vitest';
import { ClusterClock } from './cluster-clock';

const at = (ms: number) => new Date(ms).toUTCString();

describe('ClusterClock', () => {
  it('uses local time until the server has answered, and says it has not heard the cluster', () => {
    const clock = new ClusterClock(() => 42_000);
    expect(clock.now()).toBe(42_000);
    expect(clock.heard()).toBe(false);
    clock.observe('not a date', 42_000);
    expect(clock.heard()).toBe(false);
    clock.observe(at(1_000_000_000_000), 42_000);
    expect(clock.heard()).toBe(true);
  });

  it('follows a skewed server clock', () => {
    const clock = new ClusterClock(() => 0);
    clock.observe(at(1_000_000_000_000), 10_000);
    expect(clock.now(12_000)).toBe(1_000_000_002_000);
  });

  it('learns a faster clock (a virtual clock at 10x) and never goes backwards', () => {
    const clock = new ClusterClock(() => 0);
    const start = 1_800_000_000_000;
    for (let local = 0; local <= 20_000; local += 1_000) clock.observe(at(start + local * 10), local);
    const estimate = clock.now(25_000);
    expect(estimate).toBeGreaterThan(start + 240_000);
    expect(estimate).toBeLessThan(start + 260_000);
    clock.observe(at(start), 26_000);
    expect(clock.now(26_000)).toBeGreaterThanOrEqual(estimate);
  });

  it('answers whole milliseconds when the measured rate is fractional', () => {
    const clock = new ClusterClock(() => 0);
    const start = 1_800_000_000_000;
    for (let local = 0; local <= 20_000; local += 1_003) clock.observe(at(start + local * 10), local);
    for (const local of [20_101, 20_333, 21_007]) expect(Number.isInteger(clock.now(local))).toBe(true);
  });

  it('lets the first server answer replace earlier local guesses, and follows a paused clock', () => {
    let local = 1_900_000_000_000;
    const clock = new ClusterClock(() => local);
    expect(clock.now()).toBe(local);
    const server = 1_800_000_000_000;
    clock.observe(at(server), local);
    expect(clock.now()).toBe(server);
    for (let step = 1; step <= 12; step += 1) {
      local += 1_000;
      clock.observe(at(server), local);
    }
    const paused = clock.now();
    local += 60_000;
    expect(clock.now()).toBe(paused);
  });

  it('takes a one-off jump (the virtual clock advanced by 10 minutes) without learning a wild rate', () => {
    const clock = new ClusterClock(() => 0);
    const start = 1_800_000_000_000;
    let server = start;
    let local = 0;
    const tick = (ms: number, speed: number) => {
      for (let step = 0; step < ms / 1_000; step += 1) {
        local += 1_000;
        server += 1_000 * speed;
        clock.observe(at(server), local);
      }
    };
    tick(20_000, 10);
    server += 10 * 60_000;
    clock.observe(at(server), local);
    expect(clock.now(local)).toBeGreaterThanOrEqual(server - 1_000);
    tick(20_000, 10);
    const estimate = clock.now(local + 1_000);
    expect(estimate).toBeGreaterThan(server);
    expect(estimate).toBeLessThan(server + 20_000);
    expect(clock.probeIntervalMs()).toBe(2_000);
  });

  it('probes rarely when the cluster clock runs in real time', () => {
    const clock = new ClusterClock(() => 0);
    for (let local = 0; local <= 20_000; local += 1_000) clock.observe(at(1_800_000_000_000 + local), local);
    expect(clock.probeIntervalMs()).toBe(30_000);
  });

  it('ignores missing or malformed headers', () => {
    const clock = new ClusterClock(() => 5);
    clock.observe(undefined, 1);
    clock.observe('not a date', 1);
    expect(clock.now(7)).toBe(7);
  });
});
