import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execProviderFrom, hubSourceOptions, parseHubArgument } from './hub-config';

const dir = mkdtempSync(join(tmpdir(), 'hub-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hub settings', () => {
  it('--hub FILE[:CONTEXT]', () => {
    expect(parseHubArgument('/etc/hub/kubeconfig')).toEqual({ kubeconfig: '/etc/hub/kubeconfig' });
    expect(parseHubArgument('/etc/hub/kubeconfig:acm-hub')).toEqual({
      kubeconfig: '/etc/hub/kubeconfig',
      context: 'acm-hub',
    });
    expect(parseHubArgument('C:\\hub.yaml')).toEqual({ kubeconfig: 'C:\\hub.yaml' });
  });

  it('the namespace defaults to the pod namespace, then the dashboard namespace', () => {
    const base = { UPDATE_HEALTH_HUB_KUBECONFIG: '/h:c', UPDATE_HEALTH_CONTEXTS: undefined } as never;
    expect(hubSourceOptions(base)).toMatchObject({
      kubeconfig: '/h',
      context: 'c',
      namespace: 'openshift-update-health',
    });
    expect(hubSourceOptions({ ...(base as object), POD_NAMESPACE: 'acm-apps' } as never).namespace).toBe('acm-apps');
    expect(
      hubSourceOptions({ ...(base as object), POD_NAMESPACE: 'x', UPDATE_HEALTH_HUB_NAMESPACE: 'y' } as never)
        .namespace,
    ).toBe('y');
  });

  it('reads the open-cluster-management exec plugin from a Cluster Inventory access providers file', () => {
    const path = join(dir, 'providers.json');
    writeFileSync(
      path,
      JSON.stringify({
        providers: [
          {
            name: 'open-cluster-management',
            execConfig: {
              apiVersion: 'client.authentication.k8s.io/v1',
              command: '/usr/local/bin/cp-creds',
              args: ['--managed-serviceaccount=update-health'],
              provideClusterInfo: true,
            },
          },
        ],
      }),
    );
    expect(execProviderFrom(path)).toMatchObject({ command: '/usr/local/bin/cp-creds', provideClusterInfo: true });
    writeFileSync(path, JSON.stringify({ providers: [{ name: 'other', execConfig: { command: 'x' } }] }));
    expect(() => execProviderFrom(path)).toThrow(/has no "open-cluster-management" provider/);
    writeFileSync(path, '{ nope');
    expect(() => execProviderFrom(path)).toThrow(/cannot read access providers file/);
    writeFileSync(path, JSON.stringify({ providers: [{ name: 'open-cluster-management', execConfig: {} }] }));
    expect(() => execProviderFrom(path)).toThrow(/providers\.0\.execConfig\.command/);
  });
});
