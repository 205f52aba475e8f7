/** The per-turn budget of stream grants: a turn's share at once, the rest in the coming turns, in order. */
import { describe, expect, it } from 'vitest';
import { setImmediate as turn } from 'node:timers/promises';
import { TurnBudget } from './turn-budget';

describe('TurnBudget', () => {
  it("gives a turn's share at once and the rest over the coming turns, first come first served", async () => {
    const budget = new TurnBudget(3);
    const now = [budget.tryTake(), budget.tryTake(), budget.tryTake(), budget.tryTake()];
    expect(now).toEqual([true, true, true, false]);
    const order: string[] = [];
    const waits = ['a', 'b', 'c', 'd'].map((name) => budget.wait().then(() => order.push(name)));
    // a caller that did not wait must not pass those who do
    expect(budget.tryTake()).toBe(false);
    await turn();
    expect(order).toEqual(['a', 'b', 'c']);
    await Promise.all(waits);
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });

  it('canTake says whether tryTake would take a grant, without taking one', async () => {
    const budget = new TurnBudget(1);
    expect([budget.canTake(), budget.canTake()]).toEqual([true, true]);
    expect(budget.tryTake()).toBe(true);
    expect(budget.canTake()).toBe(false);
    await turn();
    expect(budget.canTake()).toBe(true);
    const waiting = budget.wait();
    // a caller waiting for a coming turn's grant is served before anyone who did not wait
    expect(budget.canTake()).toBe(false);
    await waiting;
  });

  it('renews the share once the turn is over', async () => {
    const budget = new TurnBudget(2);
    expect([budget.tryTake(), budget.tryTake(), budget.tryTake()]).toEqual([true, true, false]);
    await turn();
    expect([budget.tryTake(), budget.tryTake(), budget.tryTake()]).toEqual([true, true, false]);
  });

  it('a waiter that gives up is refused as aborted and its grant goes to the next', async () => {
    const budget = new TurnBudget(1);
    expect(budget.tryTake()).toBe(true);
    const controller = new AbortController();
    const gone = budget.wait(controller.signal);
    const next = budget.wait();
    controller.abort();
    await expect(gone).rejects.toMatchObject({ failure: 'aborted' });
    let granted = false;
    void next.then(() => (granted = true));
    await turn();
    await Promise.resolve();
    expect(granted).toBe(true);
  });

  it('close refuses every waiter', async () => {
    const budget = new TurnBudget(1);
    budget.tryTake();
    const waiting = budget.wait();
    budget.close(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
  });
});
