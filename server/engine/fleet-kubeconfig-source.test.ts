import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { buildKubeconfig, type KubeconfigEntry } from '@/server/simulator/kubeconfig';
import { kubeconfigSource } from '@/server/fleet-sources/kubeconfig-source';
import { until } from '@/server/testing/reflector-harness';
import { Fleet } from './fleet';

describe('a fleet following a watched kubeconfig', () => {
  let sim: TestServer;
  let dir = '';
  let fleet: Fleet | undefined;
  const entry = (name: string): KubeconfigEntry => ({
    name,
    server: sim.served.url,
    caData: sim.served.caData,
    token: sim.served.tokens.reader,
  });
  // Written like editors and `kubectl config` do: a new file renamed over the old one.
  const write = (path: string, text: string) => {
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
  };
  const ids = () =>
    fleet!
      .members()
      .map((member) => member.id)
      .sort();

  beforeAll(async () => {
    sim = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'fleet-kubeconfig-'));
  });
  afterAll(async () => {
    fleet?.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds, removes and rebuilds members as contexts change, without a restart', async () => {
    const path = join(dir, 'kubeconfig.yaml');
    write(path, buildKubeconfig([entry('alpha')]));
    fleet = new Fleet();
    fleet.follow([kubeconfigSource(path, { debounceMs: 50 })]);
    expect(ids()).toEqual(['alpha']);
    expect(fleet.summaries()[0].discoveredBy).toEqual({ kind: 'kubeconfig', name: path });

    write(path, buildKubeconfig([entry('alpha'), entry('beta')]));
    await until('beta joins', () => ids().includes('beta'), 10_000);
    const beta = fleet.get('beta')!;
    await until('beta synced', () => beta.summary().sources.synced > 0, 15_000);
    expect(fleet.membership()).toMatchObject({ discovered: 2, waiting: [] });

    write(path, buildKubeconfig([entry('beta')]));
    await until('alpha leaves', () => !ids().includes('alpha'), 10_000);
    expect(ids()).toEqual(['beta']);

    // An edited context (its server) gets a new engine; a rewritten token does not (it is read again on a 401).
    const before = fleet.get('beta');
    write(path, buildKubeconfig([{ ...entry('beta'), token: sim.served.tokens.admin }]));
    write(path, buildKubeconfig([{ ...entry('beta'), server: sim.served.url.replace('127.0.0.1', 'localhost') }]));
    await until('beta rebuilt', () => fleet!.get('beta') !== before, 10_000);
    const rebuilt = fleet.get('beta');
    write(
      path,
      buildKubeconfig([
        { ...entry('beta'), server: sim.served.url.replace('127.0.0.1', 'localhost'), token: sim.served.tokens.admin },
      ]),
    );
    write(
      path,
      buildKubeconfig(
        [entry('beta'), entry('epsilon')].map((e) => ({ ...e, server: e.server.replace('127.0.0.1', 'localhost') })),
      ),
    );
    await until('epsilon joins', () => ids().includes('epsilon'), 10_000);
    expect(fleet.get('beta')).toBe(rebuilt);
  });

  it('keeps the last good set when the file turns malformed, says why, and recovers', async () => {
    const path = join(dir, 'malformed.yaml');
    write(path, buildKubeconfig([entry('gamma')]));
    fleet?.stop();
    fleet = new Fleet();
    fleet.follow([kubeconfigSource(path, { debounceMs: 50 })]);
    write(path, 'clusters: [ {{{ this is not yaml');
    await until('the error shows', () => fleet!.membership().sources[0].error, 10_000);
    expect(fleet.membership().sources[0].error?.message).toMatch(
      /cannot parse .*malformed\.yaml.*keeping the clusters/s,
    );
    expect(ids()).toEqual(['gamma']);
    write(path, buildKubeconfig([entry('gamma'), entry('delta')]));
    await until('delta joins', () => ids().includes('delta'), 10_000);
    expect(fleet.membership().sources[0].error).toBeUndefined();
  });

  it('a chosen context missing from the file waits with its reason instead of vanishing', async () => {
    const path = join(dir, 'chosen.yaml');
    write(path, buildKubeconfig([entry('one')]));
    fleet?.stop();
    fleet = new Fleet();
    fleet.follow([kubeconfigSource(path, { contexts: ['one', 'two'], debounceMs: 50 })]);
    expect(ids()).toEqual(['one']);
    expect(fleet.membership()).toMatchObject({ discovered: 2, connected: 0, synced: 0 });
    // Rows still connecting wait too; the missing context waits with its own reason.
    expect(fleet.membership().waiting.find((entry) => entry.id === 'two')).toMatchObject({
      reason: 'the kubeconfig has no context "two"',
    });
    write(path, buildKubeconfig([entry('one'), entry('two')]));
    await until('two joins', () => ids().includes('two'), 10_000);
    await until('nothing waits once both synced', () => fleet!.membership().waiting.length === 0, 20_000);
    expect(fleet.membership()).toMatchObject({ discovered: 2, connected: 2 });
    // Synced once no source of either is behind (connected needs one source only).
    await until('both synced', () => fleet!.membership().synced === 2, 20_000);
  });
});
