import type { PodProxy, ProxyHandler, ProxyResponse } from './types';

/** Registry of simulated pod and service endpoints for the API server's proxy subresources. */
export class ProxyRegistry implements PodProxy {
  private readonly pods = new Map<string, Map<number, ProxyHandler>>();
  private readonly services = new Map<string, Map<number, ProxyHandler>>();
  private readonly prepares = new Map<string, () => Promise<void>>();

  /** Registers what a pod answers on `port` (and what brings its answer up to date before a read). */
  registerPod(
    namespace: string,
    pod: string,
    port: number,
    handler: ProxyHandler,
    prepare?: () => Promise<void>,
  ): void {
    register(this.pods, `${namespace}/${pod}`, port, handler);
    if (prepare) this.prepares.set(`${namespace}/${pod}`, prepare);
  }

  /** Removes every port of a pod. */
  unregisterPod(namespace: string, pod: string): void {
    this.pods.delete(`${namespace}/${pod}`);
    this.prepares.delete(`${namespace}/${pod}`);
  }

  /** Resolves once what a pod answers is current. */
  async prepare(target: 'pods' | 'services', namespace: string, name: string): Promise<void> {
    if (target === 'pods') await this.prepares.get(`${namespace}/${name}`)?.();
  }

  /** Registers what a service answers on `port`. */
  registerService(namespace: string, service: string, port: number, handler: ProxyHandler): void {
    register(this.services, `${namespace}/${service}`, port, handler);
  }

  /** Removes every port of a service. */
  unregisterService(namespace: string, service: string): void {
    this.services.delete(`${namespace}/${service}`);
  }

  /**
   * Dispatches a proxied GET. Without a port the only (or lowest) registered port answers. `undefined` means
   * nothing is listening there.
   */
  handle(
    target: 'pods' | 'services',
    namespace: string,
    name: string,
    port: number | undefined,
    path: string,
  ): ProxyResponse | undefined {
    const ports = (target === 'pods' ? this.pods : this.services).get(`${namespace}/${name}`);
    if (!ports || ports.size === 0) return undefined;
    const handler = port === undefined ? ports.get(Math.min(...ports.keys())) : ports.get(port);
    return handler ? handler(path) : undefined;
  }
}

function register(map: Map<string, Map<number, ProxyHandler>>, key: string, port: number, handler: ProxyHandler): void {
  let ports = map.get(key);
  if (!ports) {
    ports = new Map();
    map.set(key, ports);
  }
  ports.set(port, handler);
}
