import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EvaluationPacer } from './evaluation-pacer';

const turn = () => new Promise((resolve) => setImmediate(resolve));

function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy, as an evaluation is
  }
}

let server: Server | undefined;
afterEach(() => server?.close());

describe('EvaluationPacer', () => {
  it('runs queued tasks in slices of the given length, in order, a key queued twice once', async () => {
    let clock = 0;
    const pacer = new EvaluationPacer(20, () => clock);
    const ran: string[] = [];
    const task = (name: string) => () => {
      clock += 10;
      ran.push(name);
    };
    const keys = [{}, {}, {}, {}, {}];
    keys.forEach((key, i) => pacer.run(key, task(`t${i}`)));
    pacer.run(keys[0], task('again'));
    pacer.cancel(keys[3]);
    expect(ran).toEqual([]);
    await turn();
    expect(ran).toEqual(['t0', 't1']);
    await turn();
    expect(ran).toEqual(['t0', 't1', 't2', 't4']);
    expect(pacer.size).toBe(0);
  });

  it('lets a request be answered between slices while a long queue runs', async () => {
    server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const pacer = new EvaluationPacer(20);
    let done = 0;
    const total = 200;
    for (let i = 0; i < total; i += 1)
      pacer.run({}, () => {
        spin(2);
        done += 1;
      });
    const answered = await fetch(`http://127.0.0.1:${port}/`).then(async (response) => {
      await response.text();
      return done;
    });
    // All at once (no slices), the request would wait for every task: about 400 ms of blocked loop.
    expect(answered).toBeLessThan(total);
    while (pacer.size > 0) await turn();
    expect(done).toBe(total);
  });
});
