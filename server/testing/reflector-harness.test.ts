/** cleanupAfterEach, across the tests of one file: what a test started ends after it, in order, and only once. */
import { describe, expect, it } from 'vitest';
import { observe, startSim, cleanupAfterEach, type Observed, type SimHarness } from './reflector-harness';

describe('cleanupAfterEach', () => {
  let sim: SimHarness | undefined;
  let observed: Observed[] = [];
  const cleanups = cleanupAfterEach(() => ({ sim, observed }));
  const ended: string[] = [];

  it('a test starts a simulator and a reflector, and pushes two cleanups', async () => {
    sim = await startSim({ pods: 1 });
    const close = sim.close;
    sim.close = () => {
      ended.push('sim');
      return close();
    };
    observed = [observe(sim.transport)];
    const { reflector } = observed[0];
    const stop = reflector.stop.bind(reflector);
    reflector.stop = () => {
      ended.push('reflector');
      stop();
    };
    reflector.start();
    expect(await reflector.waitForSync(5_000)).toBe(true);
    cleanups.push(() => void ended.push('first'));
    cleanups.push(async () => {
      await sim!.transport.getJson('/api');
      ended.push('second');
    });
  });

  it('after it: the reflector stopped, the cleanups ran last pushed first, the simulator closed last', () => {
    expect(ended).toEqual(['reflector', 'second', 'first', 'sim']);
  });

  it('a test that starts nothing ends nothing again', () => {
    expect(ended).toEqual(['reflector', 'second', 'first', 'sim']);
  });
});
