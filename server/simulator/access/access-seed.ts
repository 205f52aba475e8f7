/**
 * The RBAC objects and Groups every embedded cluster ships, shaped like OpenShift's bootstrap policy: ClusterRoles
 * `cluster-admin`, `cluster-reader` and `view`, `basic-user` for every authenticated user, and the dashboard's own
 * service-account roles. Users log in through the HTPasswd identity provider and get their access from Groups.
 */
import { RESOURCES, RESOURCE_NAMES, type ResourceInfo, type ResourceName } from '@/lib/k8s/resources';
import type { KubeObject } from '@/lib/k8s/types';
import type { SimClient } from '../types';

/** The users of the embedded HTPasswd identity provider and the Group each belongs to. */
export const EMBEDDED_USERS = [
  { user: 'admin', group: 'cluster-admins' },
  { user: 'sre', group: 'sre' },
  { user: 'dev', group: 'catalog-team' },
] as const;

/** The namespace of the dashboard's own service accounts. */
export const SERVICE_NAMESPACE = 'openshift-update-health';

const READ = ['get', 'list', 'watch'];

/** Resources a namespace `view`er may read (the aggregated `view` role, without secrets). */
const VIEW_RULES = [
  {
    apiGroups: [''],
    resources: [
      'pods',
      'pods/log',
      'events',
      'configmaps',
      'services',
      'endpoints',
      'persistentvolumeclaims',
      'namespaces',
    ],
    verbs: READ,
  },
  { apiGroups: ['apps'], resources: ['deployments', 'daemonsets', 'replicasets', 'statefulsets'], verbs: READ },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: READ },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: READ },
];

/** Resources the restricted service account may not read (to exercise forbidden sources). */
const RESTRICTED_DENIED = new Set<ResourceName>(['pods', 'events', 'customresourcedefinitions']);

function readRulesFor(resources: readonly ResourceName[]) {
  const byGroup = new Map<string, string[]>();
  for (const name of resources) {
    const info: ResourceInfo = RESOURCES[name];
    byGroup.set(info.group, [...(byGroup.get(info.group) ?? []), name]);
  }
  return [...byGroup].map(([group, names]) => ({ apiGroups: [group], resources: names, verbs: READ }));
}

function clusterRole(name: string, rules: unknown[]): KubeObject {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules };
}

type SubjectRef =
  { kind: 'Group' | 'User'; name: string } | { kind: 'ServiceAccount'; name: string; namespace: string };

function clusterRoleBinding(name: string, role: string, subjects: SubjectRef[]): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: subjects.map((subject) =>
      subject.kind === 'ServiceAccount' ? subject : { apiGroup: 'rbac.authorization.k8s.io', ...subject },
    ),
  };
}

function serviceAccount(name: string): SubjectRef {
  return { kind: 'ServiceAccount', name, namespace: SERVICE_NAMESPACE };
}

/** A RoleBinding giving `group` the `view` ClusterRole inside `namespace`. */
export function namespaceViewer(namespace: string, group: string): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: `${group}-view`, namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group }],
  };
}

/** Creates the bootstrap ClusterRoles, bindings and Groups through the API (idempotent: existing objects are kept). */
export function installAccessControl(client: SimClient): void {
  const objects: [ResourceName, KubeObject][] = [
    [
      'clusterroles',
      clusterRole('cluster-admin', [
        { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
        { nonResourceURLs: ['*'], verbs: ['*'] },
      ]),
    ],
    [
      'clusterroles',
      clusterRole('cluster-reader', [
        { apiGroups: ['*'], resources: ['*'], verbs: READ },
        {
          nonResourceURLs: [
            '/metrics',
            '/healthz',
            '/healthz/*',
            '/version',
            '/version/*',
            '/api',
            '/api/*',
            '/apis',
            '/apis/*',
          ],
          verbs: ['get'],
        },
      ]),
    ],
    ['clusterroles', clusterRole('view', VIEW_RULES)],
    [
      'clusterroles',
      clusterRole('basic-user', [
        { apiGroups: ['user.openshift.io'], resources: ['users'], resourceNames: ['~'], verbs: ['get'] },
        { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'], verbs: ['create'] },
      ]),
    ],
    [
      'clusterroles',
      clusterRole('system:oauth-token-deleter', [
        {
          apiGroups: ['oauth.openshift.io'],
          resources: ['oauthaccesstokens', 'oauthauthorizetokens'],
          verbs: ['delete'],
        },
      ]),
    ],
    [
      'clusterroles',
      clusterRole('update-health-reviewer', [
        { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
        { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
      ]),
    ],
    [
      'clusterroles',
      clusterRole('update-health-restricted', [
        ...readRulesFor(RESOURCE_NAMES.filter((name) => !RESTRICTED_DENIED.has(name))),
      ]),
    ],
    [
      'clusterrolebindings',
      clusterRoleBinding('cluster-admins', 'cluster-admin', [
        { kind: 'Group', name: 'system:cluster-admins' },
        { kind: 'Group', name: 'cluster-admins' },
      ]),
    ],
    [
      'clusterrolebindings',
      clusterRoleBinding('sre-cluster-reader', 'cluster-reader', [{ kind: 'Group', name: 'sre' }]),
    ],
    [
      'clusterrolebindings',
      clusterRoleBinding('basic-users', 'basic-user', [{ kind: 'Group', name: 'system:authenticated' }]),
    ],
    [
      'clusterrolebindings',
      clusterRoleBinding('system:oauth-token-deleters', 'system:oauth-token-deleter', [
        { kind: 'Group', name: 'system:authenticated' },
      ]),
    ],
    ['clusterrolebindings', clusterRoleBinding('update-health-reader', 'cluster-reader', [serviceAccount('reader')])],
    [
      'clusterrolebindings',
      clusterRoleBinding('update-health-reviewer', 'update-health-reviewer', [serviceAccount('reader')]),
    ],
    [
      'clusterrolebindings',
      clusterRoleBinding('update-health-restricted', 'update-health-restricted', [serviceAccount('restricted')]),
    ],
    ...EMBEDDED_USERS.map(({ user, group }): [ResourceName, KubeObject] => [
      'groups',
      { apiVersion: 'user.openshift.io/v1', kind: 'Group', metadata: { name: group }, users: [user] },
    ]),
  ];
  for (const [resource, object] of objects) {
    if (!client.get(resource, object.metadata.name)) client.create(resource, object);
  }
}
