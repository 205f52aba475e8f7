import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execCredentialSource, type ExecConfig } from './exec-credential';

/**
 * A real plugin process: appends its KUBERNETES_EXEC_INFO to a log file (one line per run) and prints what the
 * test put in `answer.json`, as a credential plugin such as cp-creds or `oc` would.
 */
const PLUGIN = `#!/usr/bin/env node
const fs = require('node:fs');
const dir = process.argv[2];
fs.appendFileSync(dir + '/runs.log', (process.env.KUBERNETES_EXEC_INFO ?? '') + '\\n');
const answer = fs.readFileSync(dir + '/answer.json', 'utf8');
if (answer.startsWith('EXIT')) { process.stderr.write('no token for you'); process.exit(3); }
process.stdout.write(answer);
`;

describe('exec credential plugin (client.authentication.k8s.io/v1)', () => {
  let dir = '';
  let config: ExecConfig;
  const runs = () =>
    readFileSync(join(dir, 'runs.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { spec: { interactive: boolean; cluster?: Record<string, unknown> } });
  const answer = (status: Record<string, unknown>, apiVersion = 'client.authentication.k8s.io/v1') =>
    writeFileSync(join(dir, 'answer.json'), JSON.stringify({ apiVersion, kind: 'ExecCredential', status }));

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'exec-cred-'));
    writeFileSync(join(dir, 'plugin.js'), PLUGIN);
    chmodSync(join(dir, 'plugin.js'), 0o755);
    writeFileSync(join(dir, 'runs.log'), '');
    config = { command: process.execPath, args: [join(dir, 'plugin.js'), dir], interactiveMode: 'Never' };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hands the cluster to the plugin when provideClusterInfo, never interactive, and shares one run', async () => {
    writeFileSync(join(dir, 'runs.log'), '');
    answer({ token: 'tok-1' });
    const source = execCredentialSource(
      { ...config, provideClusterInfo: true },
      { cluster: { server: 'https://proxy:9092/cluster1', config: { clusterName: 'cluster1' } } },
    );
    const tokens = await Promise.all([1, 2, 3].map(() => source({ rejected: false })));
    expect(tokens.map((t) => t.token)).toEqual(['tok-1', 'tok-1', 'tok-1']);
    expect(runs()).toHaveLength(1);
    expect(runs()[0].spec.interactive).toBe(false);
    expect(runs()[0].spec.cluster).toEqual({
      server: 'https://proxy:9092/cluster1',
      config: { clusterName: 'cluster1' },
    });
  });

  it('keeps the token until its expirationTimestamp, then runs the plugin again', async () => {
    writeFileSync(join(dir, 'runs.log'), '');
    let now = Date.parse('2026-01-01T00:00:00Z');
    answer({ token: 'short', expirationTimestamp: '2026-01-01T00:01:00Z' });
    const source = execCredentialSource(config, { now: () => now });
    expect((await source({ rejected: false })).token).toBe('short');
    now += 30_000;
    expect((await source({ rejected: false })).token).toBe('short');
    expect(runs()).toHaveLength(1);
    expect(runs()[0].spec.cluster).toBeUndefined();
    answer({ token: 'next', expirationTimestamp: '2026-01-01T00:05:00Z' });
    now += 25_000; // within the skew before expiry
    expect((await source({ rejected: false })).token).toBe('next');
    expect(runs()).toHaveLength(2);
  });

  it('keeps a token without expiry until the server rejects it', async () => {
    writeFileSync(join(dir, 'runs.log'), '');
    answer({ token: 'forever' });
    const source = execCredentialSource(config);
    await source({ rejected: false });
    await source({ rejected: false });
    expect(runs()).toHaveLength(1);
    answer({ token: 'rotated' });
    expect((await source({ rejected: true })).token).toBe('rotated');
    expect(runs()).toHaveLength(2);
  });

  it('says why when the plugin fails, answers garbage, the wrong version, or wants a terminal', async () => {
    writeFileSync(join(dir, 'answer.json'), 'EXIT');
    await expect(execCredentialSource(config)({ rejected: false })).rejects.toThrow(/exited 3: no token for you/);
    writeFileSync(join(dir, 'answer.json'), 'not json');
    await expect(execCredentialSource(config)({ rejected: false })).rejects.toThrow(/no ExecCredential JSON/);
    answer({ token: 'x' }, 'client.authentication.k8s.io/v1beta1');
    await expect(execCredentialSource(config)({ rejected: false })).rejects.toThrow(/answered .*v1beta1/);
    answer({ token: 'x', expirationTimestamp: 'soon' });
    await expect(execCredentialSource(config)({ rejected: false })).rejects.toThrow(/unreadable expirationTimestamp/);
    answer({});
    await expect(execCredentialSource(config)({ rejected: false })).rejects.toThrow(/gave no token/);
    await expect(execCredentialSource({ ...config, interactiveMode: 'Always' })({ rejected: false })).rejects.toThrow(
      /interactive terminal/,
    );
    await expect(
      execCredentialSource({ command: join(dir, 'missing'), installHint: 'install cp-creds' })({ rejected: false }),
    ).rejects.toThrow(/cannot run: .*install cp-creds/);
  });
});
