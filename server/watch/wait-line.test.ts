/** The line requests wait in: first come first served, a request that gives up is skipped, close refuses the rest. */
import { describe, expect, it } from 'vitest';
import { WaitLine } from './wait-line';

describe('WaitLine', () => {
  it('serves in arrival order, skipping those that gave up, which are refused as aborted', async () => {
    const line = new WaitLine<number, string>();
    const controller = new AbortController();
    const a = line.wait('a');
    const gone = line.wait('gone', controller.signal);
    const b = line.wait('b');
    controller.abort();
    await expect(gone).rejects.toMatchObject({ failure: 'aborted' });
    expect(line.size).toBe(2);
    expect(line.peek()).toBe('a');
    expect(line.serve(1)).toBe(true);
    expect(line.peek()).toBe('b');
    expect(line.serve(2)).toBe(true);
    expect(line.serve(3)).toBe(false);
    expect([await a, await b]).toEqual([1, 2]);
    expect(line.size).toBe(0);
  });

  it('refuses a request whose signal already aborted, and every one still waiting on failAll', async () => {
    const line = new WaitLine<number>();
    await expect(line.wait(undefined, AbortSignal.abort())).rejects.toMatchObject({ failure: 'aborted' });
    const waiting = line.wait(undefined);
    line.failAll(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
    expect(line.size).toBe(0);
  });

  it('keeps order across a long line served while others join and give up, as a fleet sync behind one proxy does', async () => {
    const line = new WaitLine<number, number>();
    const waits: Promise<number>[] = [];
    const aborts = new Map<number, AbortController>();
    let next = 0;
    const join = (count: number) => {
      for (let i = 0; i < count; i += 1, next += 1) {
        const controller = new AbortController();
        aborts.set(next, controller);
        waits.push(line.wait(next, controller.signal).catch(() => -1));
      }
    };
    join(5_000);
    const served: number[] = [];
    const servedIds = new Set<number>();
    const gaveUp = new Set<number>();
    for (let round = 0; round < 40; round += 1) {
      for (let i = 0; i < 150; i += 1) {
        const first = line.peek();
        if (first === undefined) break;
        expect(line.serve(first)).toBe(true);
        served.push(first);
        servedIds.add(first);
      }
      // some of those waiting give up (the first of them too, sometimes), and newcomers join behind
      for (const id of [line.peek()!, next - 1, next - 300]) {
        if (id === undefined || gaveUp.has(id) || servedIds.has(id)) continue;
        gaveUp.add(id);
        aborts.get(id)!.abort();
      }
      join(100);
    }
    for (let first = line.peek(); first !== undefined; first = line.peek()) {
      line.serve(first);
      served.push(first);
    }
    expect(line.size).toBe(0);
    expect(served).toEqual([...Array(next).keys()].filter((id) => !gaveUp.has(id)));
    const answers = await Promise.all(waits);
    expect(answers).toEqual([...Array(next).keys()].map((id) => (gaveUp.has(id) ? -1 : id)));
  });
});
