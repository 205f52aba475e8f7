import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ResourceNeed } from '@/lib/health/types';
import type { ClusterConnection, TextResponse } from '@/server/kube/connection';
import { OPTIONAL_PROBE_MS, OPTIONAL_RETRY_MS, OptionalSources } from './optional-sources';

const NEED = { resource: 'hostedclusters', optional: true } as ResourceNeed;
const SERVED: TextResponse = { status: 200, body: JSON.stringify({ resources: [{ name: 'hostedclusters' }] }) };

/** A connection whose discovery answers come from a script, one per probe (the last one repeats). */
function scripted(answers: (TextResponse | Error)[]): { connection: ClusterConnection; probes: () => number } {
  let probes = 0;
  const connection = {
    getText: async () => {
      const answer = answers[Math.min(probes, answers.length - 1)];
      probes += 1;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as ClusterConnection;
  return { connection, probes: () => probes };
}

afterEach(() => vi.useRealTimers());

describe('OptionalSources', () => {
  it('asks a cluster that did not answer again within seconds, backing off, and starts the watch once served', async () => {
    vi.useFakeTimers();
    const { connection, probes } = scripted([new Error('header timeout'), { status: 503, body: '' }, SERVED]);
    const started: string[] = [];
    const sources = new OptionalSources(connection, [NEED], (need) => started.push(need.resource));
    sources.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(probes()).toBe(1);
    await vi.advanceTimersByTimeAsync(OPTIONAL_RETRY_MS);
    expect(probes()).toBe(2);
    await vi.advanceTimersByTimeAsync(2 * OPTIONAL_RETRY_MS);
    expect(probes()).toBe(3);
    expect(started).toEqual(['hostedclusters']);
    await vi.advanceTimersByTimeAsync(2 * OPTIONAL_PROBE_MS);
    expect(probes()).toBe(3);
    sources.stop();
  });

  it('asks a cluster that does not serve the API again only at the slow interval', async () => {
    vi.useFakeTimers();
    const { connection, probes } = scripted([{ status: 404, body: '' }]);
    const sources = new OptionalSources(connection, [NEED], () => undefined);
    sources.start();
    await vi.advanceTimersByTimeAsync(OPTIONAL_PROBE_MS - 1);
    expect(probes()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(probes()).toBe(2);
    sources.stop();
    await vi.advanceTimersByTimeAsync(2 * OPTIONAL_PROBE_MS);
    expect(probes()).toBe(2);
  });
});
