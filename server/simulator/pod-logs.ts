import type { PodLogs } from './types';

interface ContainerLog {
  current: string[];
  previous: string[];
}

/** In-memory container logs; `restart` moves the current log to `previous` as a container restart does. */
export class MemoryPodLogs implements PodLogs {
  private readonly logs = new Map<string, ContainerLog>();
  private readonly maxLines: number;

  constructor(options: { maxLinesPerContainer?: number } = {}) {
    this.maxLines = options.maxLinesPerContainer ?? 5_000;
  }

  private key(namespace: string, pod: string, container: string): string {
    return `${namespace}/${pod}/${container}`;
  }

  private entry(namespace: string, pod: string, container: string): ContainerLog {
    const key = this.key(namespace, pod, container);
    let log = this.logs.get(key);
    if (!log) {
      log = { current: [], previous: [] };
      this.logs.set(key, log);
    }
    return log;
  }

  /** Appends one line (a trailing newline is added when serving). */
  append(namespace: string, pod: string, container: string, line: string): void {
    const log = this.entry(namespace, pod, container);
    log.current.push(line.endsWith('\n') ? line.slice(0, -1) : line);
    if (log.current.length > this.maxLines) log.current.splice(0, log.current.length - this.maxLines);
  }

  /** The log text, newline-terminated lines; `tailLines` keeps the last N. */
  read(
    namespace: string,
    pod: string,
    container: string,
    options: { tailLines?: number; previous?: boolean } = {},
  ): string {
    const log = this.logs.get(this.key(namespace, pod, container));
    if (!log) return '';
    let lines = options.previous ? log.previous : log.current;
    if (options.tailLines !== undefined && options.tailLines >= 0)
      lines = lines.slice(Math.max(0, lines.length - options.tailLines));
    return lines.map((line) => `${line}\n`).join('');
  }

  /** True when the container has ever logged (or been restarted). */
  has(namespace: string, pod: string, container: string, previous = false): boolean {
    const log = this.logs.get(this.key(namespace, pod, container));
    return Boolean(log && (!previous || log.previous.length > 0));
  }

  /** A container restart: the current log becomes the previous one. */
  restart(namespace: string, pod: string, container: string): void {
    const log = this.entry(namespace, pod, container);
    log.previous = log.current;
    log.current = [];
  }

  /** Forgets a pod's logs (pod deleted). */
  forget(namespace: string, pod: string): void {
    const prefix = `${namespace}/${pod}/`;
    for (const key of [...this.logs.keys()]) if (key.startsWith(prefix)) this.logs.delete(key);
  }
}
