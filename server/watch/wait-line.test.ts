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
});
