import type { KubeObject, ManagedFieldsEntry } from '@/lib/k8s/types';

/**
 * A realistic OpenShift workload pod (~8 KB of JSON): OVN and multus annotations, two containers with env,
 * probes, mounts and resources, projected service-account volumes, five conditions, two container statuses,
 * and managedFields from three managers (about a quarter of the bytes), like pods in a real must-gather.
 */
export function realisticPod(index: number, options: { nodes?: number; namespaces?: number } = {}): KubeObject {
  const nodeCount = options.nodes ?? 120;
  const nsCount = options.namespaces ?? 250;
  const namespace = `app-${String(index % nsCount).padStart(3, '0')}`;
  const app = `svc-${(index >> 3) % 400}`;
  const name = `${app}-7d9f8c${(index % 97).toString(36)}b-${index.toString(36).padStart(5, 'x')}`;
  const node = `worker-${String(index % nodeCount).padStart(3, '0')}.ocp.example.com`;
  const octet = (n: number) => (index >> n) & 255;
  const ip = `10.${128 + (index % 64)}.${octet(8)}.${octet(0) || 2}`;
  const mac = `0a:58:0a:${octet(16).toString(16).padStart(2, '0')}:${octet(8).toString(16).padStart(2, '0')}:${octet(0).toString(16).padStart(2, '0')}`;
  const time = '2026-11-20T07:14:52Z';
  const env = (prefix: string) => [
    { name: `${prefix}_LOG_LEVEL`, value: 'info' },
    { name: `${prefix}_PORT`, value: '8443' },
    { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
    { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
  ];
  const probe = (path: string) => ({
    failureThreshold: 3,
    httpGet: { path, port: 8443, scheme: 'HTTPS' },
    initialDelaySeconds: 10,
    periodSeconds: 10,
    successThreshold: 1,
    timeoutSeconds: 1,
  });
  const container = (cname: string, image: string, full: boolean) => ({
    name: cname,
    image: `quay.io/example/${image}@sha256:${'4f'.repeat(32)}`,
    imagePullPolicy: 'IfNotPresent',
    args: full
      ? [
          '--config=/etc/config/config.yaml',
          '--tls-cert-file=/etc/tls/tls.crt',
          '--tls-private-key-file=/etc/tls/tls.key',
          '--v=2',
        ]
      : ['--secure-listen-address=0.0.0.0:9443'],
    env: full ? env(cname.toUpperCase().replace(/-/g, '_')) : [],
    ports: [
      { containerPort: 8443, name: 'https', protocol: 'TCP' },
      { containerPort: 9090, name: 'metrics', protocol: 'TCP' },
    ],
    ...(full ? { livenessProbe: probe('/healthz'), readinessProbe: probe('/readyz') } : {}),
    resources: { limits: { memory: '512Mi' }, requests: { cpu: '50m', memory: '128Mi' } },
    securityContext: {
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      runAsNonRoot: true,
      runAsUser: 1000680000,
    },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [
      ...(full ? [{ mountPath: '/etc/config', name: 'config', readOnly: true }] : []),
      { mountPath: '/etc/tls', name: 'serving-cert', readOnly: true },
      { mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: 'kube-api-access-x7k2p', readOnly: true },
    ],
  });
  const condition = (type: string) => ({ lastProbeTime: null, lastTransitionTime: time, status: 'True', type });
  const containerStatus = (cname: string, image: string) => ({
    containerID: `cri-o://${'9c'.repeat(32)}`,
    image: `quay.io/example/${image}@sha256:${'4f'.repeat(32)}`,
    imageID: `quay.io/example/${image}@sha256:${'4f'.repeat(32)}`,
    lastState: {},
    name: cname,
    ready: true,
    restartCount: index % 5 === 0 ? 1 : 0,
    started: true,
    state: { running: { startedAt: time } },
  });
  const managedFields: ManagedFieldsEntry[] = [
    {
      manager: 'kube-controller-manager',
      operation: 'Update',
      apiVersion: 'v1',
      time,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': {
          'f:generateName': {},
          'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {} },
          'f:ownerReferences': { '.': {}, [`k:{"uid":"${index}"}`]: {} },
        },
        'f:spec': {
          'f:containers': {
            'k:{"name":"server"}': {
              '.': {},
              'f:args': {},
              'f:env': {
                '.': {},
                'k:{"name":"POD_NAME"}': { '.': {}, 'f:name': {}, 'f:valueFrom': { '.': {}, 'f:fieldRef': {} } },
              },
              'f:image': {},
              'f:livenessProbe': { '.': {}, 'f:httpGet': { '.': {}, 'f:path': {}, 'f:port': {}, 'f:scheme': {} } },
              'f:name': {},
              'f:ports': {},
              'f:readinessProbe': {},
              'f:resources': {},
              'f:volumeMounts': {},
            },
            'k:{"name":"kube-rbac-proxy"}': {
              '.': {},
              'f:args': {},
              'f:image': {},
              'f:name': {},
              'f:ports': {},
              'f:resources': {},
            },
          },
          'f:dnsPolicy': {},
          'f:restartPolicy': {},
          'f:schedulerName': {},
          'f:securityContext': {},
          'f:serviceAccount': {},
          'f:terminationGracePeriodSeconds': {},
          'f:volumes': {
            '.': {},
            'k:{"name":"config"}': { '.': {}, 'f:configMap': {}, 'f:name': {} },
            'k:{"name":"serving-cert"}': { '.': {}, 'f:name': {}, 'f:secret': {} },
          },
        },
      },
    },
    {
      manager: 'multus-daemon',
      operation: 'Update',
      apiVersion: 'v1',
      time,
      fieldsType: 'FieldsV1',
      subresource: 'status',
      fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:k8s.v1.cni.cncf.io/network-status': {} } } },
    },
    {
      manager: 'kubelet',
      operation: 'Update',
      apiVersion: 'v1',
      time,
      fieldsType: 'FieldsV1',
      subresource: 'status',
      fieldsV1: {
        'f:status': {
          'f:conditions': Object.fromEntries(
            ['ContainersReady', 'Initialized', 'PodReadyToStartContainers', 'Ready'].map((type) => [
              `k:{"type":"${type}"}`,
              { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
            ]),
          ),
          'f:containerStatuses': {},
          'f:hostIP': {},
          'f:hostIPs': {},
          'f:phase': {},
          'f:podIP': {},
          'f:podIPs': { '.': {}, [`k:{"ip":"${ip}"}`]: { '.': {}, 'f:ip': {} } },
          'f:startTime': {},
        },
      },
    },
  ];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      generateName: `${app}-7d9f8c${(index % 97).toString(36)}b-`,
      labels: { app, 'pod-template-hash': `7d9f8c${(index % 97).toString(36)}b` },
      annotations: {
        'k8s.ovn.org/pod-networks': JSON.stringify({
          default: {
            ip_addresses: [`${ip}/23`],
            mac_address: mac,
            gateway_ips: ['10.128.0.1'],
            routes: [
              { dest: '10.128.0.0/14', nextHop: '10.128.0.1' },
              { dest: '172.30.0.0/16', nextHop: '10.128.0.1' },
            ],
            ip_address: `${ip}/23`,
            gateway_ip: '10.128.0.1',
            role: 'primary',
          },
        }),
        'k8s.v1.cni.cncf.io/network-status': JSON.stringify([
          { name: 'ovn-kubernetes', interface: 'eth0', ips: [ip], mac, default: true, dns: {} },
        ]),
        'openshift.io/scc': 'restricted-v2',
        'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `${app}-7d9f8c${(index % 97).toString(36)}b`,
          uid: `${index}`,
          controller: true,
          blockOwnerDeletion: true,
        } as never,
      ],
      managedFields,
    },
    spec: {
      containers: [container('server', app, true), container('kube-rbac-proxy', 'kube-rbac-proxy', false)],
      dnsPolicy: 'ClusterFirst',
      enableServiceLinks: true,
      imagePullSecrets: [{ name: `${app}-dockercfg-b7x2k` }],
      nodeName: node,
      preemptionPolicy: 'PreemptLowerPriority',
      priority: 0,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {
        fsGroup: 1000680000,
        seLinuxOptions: { level: 's0:c26,c15' },
        seccompProfile: { type: 'RuntimeDefault' },
      },
      serviceAccount: app,
      serviceAccountName: app,
      terminationGracePeriodSeconds: 30,
      tolerations: [
        { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
        { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
      ],
      volumes: [
        { name: 'config', configMap: { name: `${app}-config`, defaultMode: 420 } },
        { name: 'serving-cert', secret: { secretName: `${app}-tls`, defaultMode: 420 } },
        {
          name: 'kube-api-access-x7k2p',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              {
                downwardAPI: {
                  items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }],
                },
              },
              {
                configMap: {
                  name: 'openshift-service-ca.crt',
                  items: [{ key: 'service-ca.crt', path: 'service-ca.crt' }],
                },
              },
            ],
          },
        },
      ],
    },
    status: {
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(
        condition,
      ),
      containerStatuses: [containerStatus('kube-rbac-proxy', 'kube-rbac-proxy'), containerStatus('server', app)],
      hostIP: `10.0.${octet(8) % 64}.${(index % nodeCount) + 10}`,
      hostIPs: [{ ip: `10.0.${octet(8) % 64}.${(index % nodeCount) + 10}` }],
      phase: 'Running',
      podIP: ip,
      podIPs: [{ ip }],
      qosClass: 'Burstable',
      startTime: time,
    },
  };
}
