import type { KubeObject } from '@/lib/k8s/types';
import type { ProxyResponse, ScenarioContext } from '../types';
import {
  CATALOGD_LEASE,
  CATALOGD_NAMESPACE,
  CATALOGD_PORT,
  CATALOGD_SERVICE,
  buildClusterCatalog,
  buildLease,
} from '../objects/olm';
import { SECOND, iso, isoMicro } from '../objects/time';
import { createWithStatus } from '../objects/write';
import { isHealthy } from './disruption';
import { klogLine } from './klog';

/** Catalogs every cluster serves, with their index images. */
export const DEFAULT_CATALOGS: Record<string, string> = {
  'openshift-certified-operators': 'registry.redhat.io/redhat/certified-operator-index:v4.18',
  'openshift-community-operators': 'registry.redhat.io/redhat/community-operator-index:v4.18',
  'openshift-redhat-marketplace': 'registry.redhat.io/redhat/redhat-marketplace-index:v4.18',
  'openshift-redhat-operators': 'registry.redhat.io/redhat/redhat-operator-index:v4.18',
};

/** A File-Based Catalog excerpt as `/api/v1/all` streams it (JSON lines). */
function catalogContent(catalog: string): string {
  const pkg = catalog === 'openshift-redhat-operators' ? 'quay-operator' : 'argocd-operator';
  return (
    [
      { schema: 'olm.package', name: pkg, defaultChannel: 'stable-3.13' },
      { schema: 'olm.channel', name: 'stable-3.13', package: pkg, entries: [{ name: `${pkg}.v3.13.2` }] },
      {
        schema: 'olm.bundle',
        name: `${pkg}.v3.13.2`,
        package: pkg,
        image: `registry.redhat.io/quay/${pkg}-bundle@sha256:${'ab'.repeat(32)}`,
        properties: [{ type: 'olm.package', value: { packageName: pkg, version: '3.13.2' } }],
      },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n') + '\n'
  );
}

const NOT_FOUND: ProxyResponse = {
  status: 404,
  contentType: 'text/plain; charset=utf-8',
  body: '404 page not found\n',
};

/**
 * catalogd: leader election on the `catalogd-operator-lock` Lease, catalog serving through the pod proxy (only the
 * leader has unpacked catalogs; other replicas answer 404 unless `nonLeaderServes`), ClusterCatalog status.
 */
export class CatalogdController {
  private leader?: string;
  private transitions = 0;
  private readonly ready: string[] = [];
  private roundRobin = 0;

  constructor(
    private readonly context: ScenarioContext,
    private readonly options: { nonLeaderServes?: boolean; catalogs?: Record<string, string> } = {},
  ) {}

  /** Creates the ClusterCatalogs, registers the service and starts lease renewal. */
  start(): void {
    const now = this.context.clock.now();
    for (const [name, image] of Object.entries(this.options.catalogs ?? DEFAULT_CATALOGS)) {
      const catalog = buildClusterCatalog(name, image);
      catalog.status = {
        conditions: [
          {
            type: 'Progressing',
            status: 'True',
            reason: 'Succeeded',
            message: 'Successfully unpacked and stored content from resolved source',
            lastTransitionTime: iso(now - 3 * 3600 * SECOND),
            observedGeneration: 1,
          },
          {
            type: 'Serving',
            status: 'True',
            reason: 'Available',
            message: 'Serving desired content from resolved source',
            lastTransitionTime: iso(now - 3 * 3600 * SECOND),
            observedGeneration: 1,
          },
        ],
        lastUnpacked: iso(now - 3 * 3600 * SECOND),
        resolvedSource: { type: 'Image', image: { ref: image.replace(/:v4\.18$/, `@sha256:${'cd'.repeat(32)}`) } },
        urls: { base: `https://${CATALOGD_SERVICE}.${CATALOGD_NAMESPACE}.svc/catalogs/${name}` },
      };
      createWithStatus(this.context.as('catalogd'), 'clustercatalogs', catalog);
    }
    this.context.proxy.registerService(CATALOGD_NAMESPACE, CATALOGD_SERVICE, 443, (path) => this.viaService(path));
    this.context.clock.setInterval(() => this.renew(), 26 * SECOND);
  }

  /** Name of the pod holding the lease. */
  get leaderPod(): string | undefined {
    return this.leader;
  }

  /** Deployment controller hook: a catalogd pod became Ready. */
  podReady(pod: KubeObject): void {
    const name = pod.metadata.name;
    if (!this.ready.includes(name)) this.ready.push(name);
    this.context.proxy.registerPod(CATALOGD_NAMESPACE, name, CATALOGD_PORT, (path) => this.serve(name, path));
    if (!this.leader) this.acquire(name);
  }

  /** Deployment controller hook: a catalogd pod is gone; a remaining ready pod takes the lease. */
  podGone(pod: KubeObject): void {
    const name = pod.metadata.name;
    const index = this.ready.indexOf(name);
    if (index >= 0) this.ready.splice(index, 1);
    if (this.leader !== name) return;
    this.leader = undefined;
    // the old leader released the lease on shutdown; the next candidate's retry period elapses first
    this.context.clock.setTimeout(() => {
      const next = this.ready.find((candidate) => this.isLive(candidate));
      if (next && !this.leader) this.acquire(next);
    }, 15 * SECOND);
  }

  private isLive(name: string): boolean {
    const pod = this.context.client.get('pods', name, CATALOGD_NAMESPACE);
    return Boolean(pod && isHealthy(pod));
  }

  private acquire(name: string): void {
    const now = this.context.clock.now();
    this.leader = name;
    const client = this.context.as('catalogd');
    const holder = `${name}_${name.slice(-5)}${'0'.repeat(3)}-lease`;
    const existing = this.context.client.get('leases', CATALOGD_LEASE, CATALOGD_NAMESPACE);
    if (!existing) {
      client.create('leases', buildLease(CATALOGD_NAMESPACE, CATALOGD_LEASE, holder, now, this.transitions));
    } else {
      this.transitions++;
      client.update('leases', {
        ...buildLease(CATALOGD_NAMESPACE, CATALOGD_LEASE, holder, now, this.transitions),
        metadata: existing.metadata,
      });
    }
    this.context.logs.append(
      CATALOGD_NAMESPACE,
      name,
      'manager',
      klogLine(
        'I',
        now,
        'leaderelection.go:268',
        `successfully acquired lease ${CATALOGD_NAMESPACE}/${CATALOGD_LEASE}`,
      ),
    );
  }

  private renew(): void {
    if (!this.leader) return;
    const lease = this.context.client.get('leases', CATALOGD_LEASE, CATALOGD_NAMESPACE);
    if (!lease) return;
    const spec = { ...(lease.spec as Record<string, unknown>), renewTime: isoMicro(this.context.clock.now()) };
    this.context.as('catalogd').update('leases', { ...lease, spec });
  }

  private serve(pod: string, path: string): ProxyResponse {
    const match = /^\/?catalogs\/([^/]+)\/api\/v1\/all$/.exec(path);
    if (!match)
      return path === '/readyz' || path === '/healthz' || path === 'readyz'
        ? { status: 200, contentType: 'text/plain', body: 'ok' }
        : NOT_FOUND;
    if (!(match[1] in (this.options.catalogs ?? DEFAULT_CATALOGS))) return NOT_FOUND;
    if (pod !== this.leader && !this.options.nonLeaderServes) return NOT_FOUND;
    return { status: 200, contentType: 'application/jsonl', body: catalogContent(match[1]) };
  }

  /** kube-proxy: requests spread over ready endpoints in turn. */
  private viaService(path: string): ProxyResponse {
    const endpoints = this.ready.filter((name) => this.isLive(name));
    if (endpoints.length === 0)
      return {
        status: 503,
        contentType: 'text/plain',
        body: 'no endpoints available for service "catalogd-service"\n',
      };
    const pod = endpoints[this.roundRobin++ % endpoints.length];
    return this.serve(pod, path);
  }
}
