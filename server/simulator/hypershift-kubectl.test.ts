import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from './core';
import {
  HCP_CRASHLOOP_BY_MS,
  HC_ROLLING,
  HC_STALLED,
  hypershiftManagementScenario,
} from './scenarios/hypershift-management';
import { startTestServer, type TestServer } from './test-harness';

describe('real kubectl against the hypershift-management cluster', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ seed: 2 });
    runScenario(t.cluster, hypershiftManagementScenario);
    t.cluster.clock.advance(HCP_CRASHLOOP_BY_MS);
  });
  afterAll(async () => t?.close());

  it('lists the HyperShift resources with their short names in api-resources', async () => {
    const { code, stdout } = await t.kubectl('reader', ['api-resources', '--api-group=hypershift.openshift.io']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^hostedclusters\s+hc,hcs\s+hypershift\.openshift\.io\/v1beta1\s+true\s+HostedCluster$/m);
    expect(stdout).toMatch(/^nodepools\s+np,nps\s+hypershift\.openshift\.io\/v1beta1\s+true\s+NodePool$/m);
    expect(stdout).toMatch(
      /^hostedcontrolplanes\s+hcp,hcps\s+hypershift\.openshift\.io\/v1beta1\s+true\s+HostedControlPlane$/m,
    );
    expect(stdout).toMatch(/^controlplanecomponents\s+cpc,cpcs\s+/m);
  });

  it('prints hostedclusters with the CRD printer columns', async () => {
    const { code, stdout, stderr } = await t.kubectl('reader', ['get', 'hostedclusters', '-n', 'clusters']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(
      /^NAME\s+VERSION\s+CP VERSION\s+KUBECONFIG\s+PROGRESS\s+AVAILABLE\s+PROGRESSING\s+MESSAGE/,
    );
    expect(stdout).toMatch(
      /^healthy\s+4\.15\.23 4\.15\.21\s+4\.15\.23 4\.15\.21\s+healthy-admin-kubeconfig\s+Completed Completed\s+True\s+False\s/m,
    );
    expect(stdout).toMatch(
      new RegExp(
        `^${HC_STALLED}\\s+4\\.14\\.38 4\\.14\\.37\\s+4\\.14\\.38 4\\.14\\.37\\s+${HC_STALLED}-admin-kubeconfig\\s+Partial Completed Completed\\s+False\\s+True\\s+Waiting for components to be available: cluster-network-operator, ingress-operator, cluster-storage-operator$`,
        'm',
      ),
    );
  });

  it('prints nodepools with desired/current nodes, version and UpdatingVersion', async () => {
    const { code, stdout } = await t.kubectl('reader', ['get', 'np', '-n', 'clusters']);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(
      /^NAME\s+CLUSTER\s+DESIRED NODES\s+CURRENT NODES\s+AUTOSCALING\s+AUTOREPAIR\s+VERSION\s+UPDATINGVERSION\s+UPDATINGCONFIG\s+MESSAGE/,
    );
    expect(stdout).toMatch(
      new RegExp(
        `^${HC_ROLLING}-us-east-1a\\s+${HC_ROLLING}\\s+3\\s+3\\s+False\\s+False\\s+4\\.16\\.7\\s+True\\s+False`,
        'm',
      ),
    );
    expect(stdout).toMatch(
      new RegExp(
        `^${HC_STALLED}-us-east-1a\\s+${HC_STALLED}\\s+3\\s+3\\s+False\\s+False\\s+4\\.14\\.38\\s+False\\s+False`,
        'm',
      ),
    );
  });

  it('lists hostedcontrolplanes across namespaces and reads one as YAML', async () => {
    const list = await t.kubectl('reader', ['get', 'hcp', '-A']);
    expect(list.code).toBe(0);
    for (const name of ['healthy', HC_ROLLING, HC_STALLED])
      expect(list.stdout).toMatch(new RegExp(`^clusters-${name}\\s+${name}\\s`, 'm'));
    const yaml = await t.kubectl('reader', [
      'get',
      'hostedcontrolplane',
      HC_STALLED,
      '-n',
      `clusters-${HC_STALLED}`,
      '-o',
      'yaml',
    ]);
    expect(yaml.stdout).toContain('kind: HostedControlPlane');
    expect(yaml.stdout).toMatch(/releaseImage: quay\.io\/openshift-release-dev\/ocp-release:4\.14\.39-x86_64/);
  });

  it('shows the crash-looping HCP operators and their library-go log line', async () => {
    const pods = await t.kubectl('reader', ['get', 'pods', '-n', `clusters-${HC_STALLED}`]);
    expect(pods.code).toBe(0);
    for (const app of ['cluster-network-operator', 'cluster-storage-operator', 'cloud-network-config-controller']) {
      expect(pods.stdout).toMatch(
        new RegExp(`^${app}-[a-z0-9]{10}-[a-z0-9]{5}\\s+0/1\\s+CrashLoopBackOff\\s+[1-9]\\d*\\s`, 'm'),
      );
    }
    expect(pods.stdout).toMatch(/^ingress-operator-[a-z0-9]{10}-[a-z0-9]{5}\s+1\/2\s+CrashLoopBackOff\s+[1-9]/m);
    expect(pods.stdout).toMatch(/^kube-apiserver-[a-z0-9]{10}-[a-z0-9]{5}\s+4\/4\s+Running\s+0\s/m);
    const name = /^(cluster-network-operator-\S+)/m.exec(pods.stdout)![1];
    const logs = await t.kubectl('reader', ['logs', '-n', `clusters-${HC_STALLED}`, name, '--tail=1']);
    expect(logs.stdout).toMatch(
      /^F\d{4} [\d:.]+ +1 main\.go:\d+\] unable to determine features: missing desired version "4\.14\.38" in featuregates\.config\.openshift\.io\/cluster\n$/,
    );
  });

  it('rejects a NodePool whose upgradeType is not in the CRD enum', async () => {
    const manifest = JSON.stringify({
      apiVersion: 'hypershift.openshift.io/v1beta1',
      kind: 'NodePool',
      metadata: { name: 'bad', namespace: 'clusters' },
      spec: {
        clusterName: 'healthy',
        management: { upgradeType: 'Rolling' },
        platform: { type: 'AWS' },
        release: { image: 'x' },
      },
    });
    const result = await t.kubectl('admin', ['create', '--validate=false', '-f', '-'], manifest);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'The NodePool "bad" is invalid: spec.management.upgradeType: Unsupported value: "Rolling": supported values: "Replace", "InPlace"\n',
    );
  });
});
