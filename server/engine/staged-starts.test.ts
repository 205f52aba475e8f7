import { afterEach, describe, expect, it } from 'vitest';
import { StagedStarts } from './staged-starts';

class FakeEngine {
  started = false;
  done = false;
  constructor(readonly id: number) {}
  start(): void {
    this.started = true;
  }
  settled(): boolean {
    return this.done;
  }
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let staged: StagedStarts<FakeEngine> | undefined;
afterEach(() => staged?.stop());

describe('StagedStarts', () => {
  it('starts at most `concurrency` engines at once; the next starts when one settles', async () => {
    staged = new StagedStarts<FakeEngine>({ concurrency: 2, checkMs: 5 });
    const engines = [0, 1, 2, 3].map((id) => new FakeEngine(id));
    engines.forEach((engine) => staged!.add(engine));
    expect(engines.map((engine) => engine.started)).toEqual([true, true, false, false]);
    expect(staged.queued).toBe(2);
    engines[1].done = true;
    await until(() => engines[2].started);
    expect(engines[3].started).toBe(false);
    engines[0].done = true;
    await until(() => engines[3].started);
    expect(staged.queued).toBe(0);
  });

  it('frees the place of an engine that never settles after `slotMs`', async () => {
    let clock = 0;
    staged = new StagedStarts<FakeEngine>({ concurrency: 1, slotMs: 1_000, checkMs: 5, now: () => clock });
    const [blackholed, next] = [new FakeEngine(0), new FakeEngine(1)];
    staged.add(blackholed);
    staged.add(next);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(next.started).toBe(false);
    clock = 1_000;
    await until(() => next.started);
  });

  it('never starts an engine removed while it waited', async () => {
    staged = new StagedStarts<FakeEngine>({ concurrency: 1, checkMs: 5 });
    const [first, removed, last] = [new FakeEngine(0), new FakeEngine(1), new FakeEngine(2)];
    [first, removed, last].forEach((engine) => staged!.add(engine));
    staged.remove(removed);
    first.done = true;
    await until(() => last.started);
    expect(removed.started).toBe(false);
  });
});
