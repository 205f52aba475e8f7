import { afterEach, describe, expect, it } from 'vitest';
import { StagedStarts } from './staged-starts';

/** An engine whose first sync settles when the test says so, telling its listeners as a ClusterEngine does. */
class FakeEngine {
  started = false;
  private done = false;
  private readonly listeners = new Set<() => void>();
  constructor(readonly id: number) {}
  start(): void {
    this.started = true;
  }
  settle(): void {
    this.done = true;
    for (const listener of this.listeners) listener();
    this.listeners.clear();
  }
  onFirstSync(listener: () => void): () => void {
    if (this.done) {
      listener();
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  get listening(): number {
    return this.listeners.size;
  }
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Lets queued microtasks (a freed place's next start) run. */
const microtasks = () => new Promise<void>((resolve) => queueMicrotask(resolve));

let staged: StagedStarts<FakeEngine> | undefined;
afterEach(() => staged?.stop());

describe('StagedStarts', () => {
  it('starts at most `concurrency` engines at once; the next starts as soon as one settles', async () => {
    staged = new StagedStarts<FakeEngine>({ concurrency: 2 });
    const engines = [0, 1, 2, 3].map((id) => new FakeEngine(id));
    engines.forEach((engine) => staged!.add(engine));
    expect(engines.map((engine) => engine.started)).toEqual([true, true, false, false]);
    expect(staged.queued).toBe(2);
    engines[1].settle();
    await microtasks();
    expect(engines.map((engine) => engine.started)).toEqual([true, true, true, false]);
    engines[0].settle();
    await microtasks();
    expect(engines[3].started).toBe(true);
    expect(staged.queued).toBe(0);
  });

  it('frees the place of an engine that settled as it started', async () => {
    staged = new StagedStarts<FakeEngine>({ concurrency: 1 });
    const [quick, next] = [new FakeEngine(0), new FakeEngine(1)];
    quick.settle();
    staged.add(quick);
    staged.add(next);
    await microtasks();
    expect(next.started).toBe(true);
  });

  it('frees the place of an engine that never settles after `slotMs`, and stops listening to it', async () => {
    staged = new StagedStarts<FakeEngine>({ concurrency: 1, slotMs: 200 });
    const [blackholed, next] = [new FakeEngine(0), new FakeEngine(1)];
    const startedAt = Date.now();
    staged.add(blackholed);
    staged.add(next);
    expect(next.started).toBe(false);
    await until(() => next.started);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(190);
    expect(blackholed.listening).toBe(0);
  });

  it('never starts an engine removed while it waited; removing a starting engine frees its place', async () => {
    staged = new StagedStarts<FakeEngine>({ concurrency: 1 });
    const [first, removed, last] = [new FakeEngine(0), new FakeEngine(1), new FakeEngine(2)];
    [first, removed, last].forEach((engine) => staged!.add(engine));
    staged.remove(removed);
    staged.remove(first);
    expect(last.started).toBe(true);
    expect(removed.started).toBe(false);
    expect(first.listening).toBe(0);
  });
});
