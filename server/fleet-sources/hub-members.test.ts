import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { isConnectable, type MemberSpec } from './fleet-source';
import {
  memberFromManagedCluster,
  memberFromProfile,
  tokenOfSecret,
  type HubMemberContext,
  TokenSecrets,
} from './hub-members';

// Shapes follow kubernetes-sigs/cluster-inventory-api (ClusterProfile) and open-cluster-management-io/api
// (ManagedCluster) as OCM writes them; see server/fixtures/acm (upstream CRDs) and fixtures/acm/ACCESS.md.
const NOW = '2026-11-25T12:00:00Z';

function profile(name: string, status?: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ClusterProfile',
    metadata: {
      name,
      namespace: 'openshift-update-health',
      creationTimestamp: '2026-11-25T10:00:00Z',
      labels: {
        'x-k8s.io/cluster-manager': 'open-cluster-management',
        'open-cluster-management.io/cluster-name': name,
      },
    },
    spec: { displayName: name, clusterManager: { name: 'open-cluster-management' } },
    ...(status ? { status } : {}),
  } as KubeObject;
}

const provider = (cluster: string) => ({
  name: 'open-cluster-management',
  cluster: {
    server: `https://cluster-proxy-addon-user.open-cluster-management-addon:9092/${cluster}`,
    'certificate-authority-data': 'Q0E=',
    extensions: [{ name: 'client.authentication.k8s.io/exec', extension: { clusterName: cluster } }],
  },
});

const healthy = (status: string, at = '2026-11-25T11:00:00Z') => ({
  type: 'ControlPlaneHealthy',
  status,
  reason: status === 'True' ? 'ManagedClusterAvailable' : 'ManagedClusterLeaseUpdateStopped',
  message: status === 'True' ? 'Managed cluster is available' : 'Registration agent stopped updating its lease.',
  lastTransitionTime: at,
});

function secret(namespace: string, name: string, data?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, ...(data ? { data } : {}) } as KubeObject;
}

/** The syncer's Secrets in the profile namespace, as the hub source watches them. */
function context(secrets: KubeObject[] = [], fetch?: () => Promise<KubeObject | undefined>): HubMemberContext {
  const tokens = new TokenSecrets(fetch);
  for (const item of secrets) tokens.observe(item);
  return {
    discoveredBy: { kind: 'hub', name: 'hub' },
    credentials: (cluster) => ({
      kind: 'secret',
      namespace: 'openshift-update-health',
      name: `${cluster}-update-health`,
      token: (rejected) => tokens.token('openshift-update-health', `${cluster}-update-health`, rejected),
    }),
    now: NOW,
  };
}

const synced = (cluster: string, text: string) =>
  secret('openshift-update-health', `${cluster}-update-health`, { token: Buffer.from(text).toString('base64') });
const tokenOf = (member: MemberSpec, rejected = false) => {
  if (!isConnectable(member)) throw new Error(`${member.id} is not connectable`);
  const { connection } = member;
  if (connection.kind !== 'endpoint') throw new Error('not an endpoint');
  return connection.credentials({ rejected });
};

const waitingReason = (member: MemberSpec) => ('waiting' in member ? member.waiting.reason : undefined);

describe('hub members from ClusterProfiles', () => {
  it('reaches a profile through its open-cluster-management access provider with the synced token Secret', () => {
    const member = memberFromProfile(
      profile('cluster1', { accessProviders: [provider('cluster1')], conditions: [healthy('True')] }),
      context([synced('cluster1', 'tok')]),
    );
    expect(isConnectable(member)).toBe(true);
    if (!isConnectable(member)) return;
    expect(member).toMatchObject({ id: 'cluster1', discoveredBy: { kind: 'hub', name: 'hub' } });
    expect(member.connection).toMatchObject({
      kind: 'endpoint',
      endpoint: {
        server: 'https://cluster-proxy-addon-user.open-cluster-management-addon:9092/cluster1',
        caData: 'Q0E=',
      },
    });
    expect(member.reachability).toBeUndefined();
  });

  it('takes the deprecated credentialProviders when accessProviders is absent', () => {
    const member = memberFromProfile(
      profile('old', { credentialProviders: [provider('old')] }),
      context([synced('old', 'tok')]),
    );
    expect(isConnectable(member)).toBe(true);
  });

  it('a profile without an access provider waits, saying so, since it was created', () => {
    const member = memberFromProfile(profile('bare', { conditions: [healthy('True')] }), context());
    expect(waitingReason(member)).toMatch(/has no "open-cluster-management" access provider/);
    expect(member).toMatchObject({ waiting: { since: '2026-11-25T10:00:00Z' } });
  });

  it('a missing or malformed token Secret: the row stays, its requests fail with the reason', async () => {
    const missing = memberFromProfile(profile('c2', { accessProviders: [provider('c2')] }), context());
    await expect(tokenOf(missing)).rejects.toThrow(/token Secret openshift-update-health\/c2-update-health not found/);
    const malformed = memberFromProfile(
      profile('c3', { accessProviders: [provider('c3')] }),
      context([secret('openshift-update-health', 'c3-update-health', { 'ca.crt': 'x' })]),
    );
    await expect(tokenOf(malformed)).rejects.toThrow(/c3-update-health has no "token" key/);
  });

  it('a token the cluster rejected is looked up again at once, not only when the watch delivers it', async () => {
    let current = synced('c4', 'old');
    const member = memberFromProfile(
      profile('c4', { accessProviders: [provider('c4')] }),
      context([current], async () => current),
    );
    expect(await tokenOf(member)).toEqual({ token: 'old' });
    current = synced('c4', 'rotated');
    expect(await tokenOf(member)).toEqual({ token: 'old' });
    expect(await tokenOf(member, true)).toEqual({ token: 'rotated' });
  });

  it('ControlPlaneHealthy False or Unknown: the hub reports it unavailable since the transition', () => {
    const member = memberFromProfile(
      profile('down', {
        accessProviders: [provider('down')],
        conditions: [healthy('Unknown', '2026-11-25T11:30:00Z')],
      }),
      context([synced('down', 'tok')]),
    );
    expect(member).toMatchObject({
      reachability: {
        status: 'hub-unavailable',
        since: '2026-11-25T11:30:00Z',
        message: 'ManagedClusterLeaseUpdateStopped: Registration agent stopped updating its lease.',
      },
    });
  });

  it('a rotated token does not change the fingerprint; a moved endpoint does', () => {
    const a = memberFromProfile(profile('c', { accessProviders: [provider('c')] }), context([synced('c', 'one')]));
    const b = memberFromProfile(profile('c', { accessProviders: [provider('c')] }), context([synced('c', 'two')]));
    const moved = provider('c');
    moved.cluster.server = 'https://proxy.example:443/c';
    const c = memberFromProfile(profile('c', { accessProviders: [moved] }), context([synced('c', 'two')]));
    expect(isConnectable(a) && isConnectable(b) && isConnectable(c)).toBe(true);
    if (!isConnectable(a) || !isConnectable(b) || !isConnectable(c)) return;
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(c.fingerprint).not.toBe(a.fingerprint);
  });
});

describe('token Secrets', () => {
  it('decodes the token and explains what is wrong with a bad one', () => {
    expect(tokenOfSecret(secret('ns', 's', { token: Buffer.from('eyJhbGciOi.abc.def').toString('base64') }))).toEqual({
      token: 'eyJhbGciOi.abc.def',
    });
    expect(tokenOfSecret(secret('ns', 's'))).toEqual({ problem: 'Secret ns/s has no "token" key' });
    expect(tokenOfSecret(secret('ns', 's', { token: '!!!' })).problem).toMatch(/not base64/);
    expect(tokenOfSecret(secret('ns', 's', { token: Buffer.from('two words').toString('base64') })).problem).toMatch(
      /does not decode to a bearer token/,
    );
  });
});

describe('hub members from ManagedClusters (no ClusterProfile API)', () => {
  const managed = (available: string): KubeObject =>
    ({
      apiVersion: 'cluster.open-cluster-management.io/v1',
      kind: 'ManagedCluster',
      metadata: { name: 'spoke', creationTimestamp: '2026-11-25T09:00:00Z' },
      spec: { hubAcceptsClient: true },
      status: {
        conditions: [
          {
            type: 'ManagedClusterConditionAvailable',
            status: available,
            reason: 'ManagedClusterKubeAPIServerUnavailable',
            message: 'The kube-apiserver is not ok',
            lastTransitionTime: '2026-11-25T11:45:00Z',
          },
        ],
        clusterClaims: [{ name: 'id.openshift.io', value: '7c3f-spoke' }],
      },
    }) as KubeObject;
  const msaContext = (): HubMemberContext => ({
    ...context(),
    credentials: (cluster) => ({
      kind: 'secret',
      namespace: cluster,
      name: 'update-health',
      token: async () => ({ token: 'x' }),
    }),
  });

  it('is reached at <proxy>/<cluster> with its managed-serviceaccount token and joins by its cluster ID claim', () => {
    const member = memberFromManagedCluster(managed('True'), { url: 'https://proxy.example:9092/' }, msaContext());
    expect(member).toMatchObject({
      clusterID: '7c3f-spoke',
      connection: { endpoint: { server: 'https://proxy.example:9092/spoke' } },
    });
    expect('reachability' in member).toBe(false);
  });

  it('ManagedClusterConditionAvailable False: hub reports unavailable', () => {
    const member = memberFromManagedCluster(managed('False'), { url: 'https://proxy.example:9092' }, msaContext());
    expect(member).toMatchObject({ reachability: { status: 'hub-unavailable', since: '2026-11-25T11:45:00Z' } });
  });
});
