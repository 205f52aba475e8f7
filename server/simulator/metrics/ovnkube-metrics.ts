import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** ExponentialBuckets(start, factor, count) as Prometheus' Go client computes them. */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  let value = start;
  for (let i = 0; i < count; i++) {
    out.push(Number(value.toPrecision(12)));
    value *= factor;
  }
  return out;
}

/** The four pod-setup stages ovnkube-controller times between first sight and port binding up. */
export const POD_STAGE_METRICS = [
  'ovnkube_controller_pod_first_seen_lsp_created_duration_seconds',
  'ovnkube_controller_pod_lsp_created_port_binding_duration_seconds',
  'ovnkube_controller_pod_port_binding_port_binding_chassis_duration_seconds',
  'ovnkube_controller_pod_port_binding_chassis_port_binding_up_duration_seconds',
] as const;

/** Pod batching settings (downstream-only metrics, see server/fixtures/metrics/ovnkube.md). */
export interface PodBatchConfig {
  windowMs: number;
  batchSize: number;
  parallelBatches: number;
}

/**
 * The ovnkube metrics of one ovnkube-node pod (interconnect mode: its ovnkube-controller container and the node's
 * CNI server), in one prom-client Registry. Names, labels and buckets follow ovn-kubernetes' definitions.
 * Exposition is async in prom-client, so the text is rendered by `settled()` (before each scrape) when something
 * changed, and served from a cache.
 */
export class OvnkubeNodeMetrics {
  readonly registry = new Registry();
  private readonly creation: Histogram;
  private readonly stages: Histogram[];
  private readonly cni: Histogram;
  private batchSize?: Histogram;
  private batchDuration?: Histogram;
  private batched?: Counter;
  private batchConfig?: Gauge;
  private cached = '';
  private rendering?: Promise<void>;
  private dirty = false;

  constructor() {
    const registers = [this.registry];
    this.creation = new Histogram({
      name: 'ovnkube_controller_pod_creation_latency_seconds',
      help: 'The duration between a pod being scheduled and completing its logical switch port configuration',
      buckets: exponentialBuckets(0.1, 2, 15),
      registers,
    });
    this.stages = POD_STAGE_METRICS.map(
      (name) =>
        new Histogram({
          name,
          help: `Time spent in pod setup stage ${name.replace('ovnkube_controller_pod_', '').replace('_duration_seconds', '')}`,
          buckets: exponentialBuckets(0.01, 2, 15),
          registers,
        }),
    );
    this.cni = new Histogram({
      name: 'ovnkube_node_cni_request_duration_seconds',
      help: 'The duration of CNI server requests.',
      labelNames: ['command', 'err'],
      buckets: exponentialBuckets(0.1, 2, 15),
      registers,
    });
    this.markDirty();
  }

  /** One pod wired up: total latency split into the four stages, and the kubelet's CNI ADD. */
  observePod(latencySeconds: number, random: () => number): void {
    this.creation.observe(latencySeconds);
    const weights = [0.45, 0.3, 0.15, 0.1].map((w) => w * (0.8 + random() * 0.4));
    const sum = weights.reduce((a, b) => a + b, 0);
    this.stages.forEach((stage, index) => stage.observe((latencySeconds * weights[index]) / sum));
    this.cni.observe({ command: 'ADD', err: 'false' }, latencySeconds * (0.85 + random() * 0.1));
    this.markDirty();
  }

  /** A failed CNI ADD (the kubelet gives up and the pod sandbox is recreated). */
  observeCniError(seconds: number): void {
    this.cni.observe({ command: 'ADD', err: 'true' }, seconds);
    this.markDirty();
  }

  /** A pod teardown (CNI DEL). */
  observeCniDel(seconds: number): void {
    this.cni.observe({ command: 'DEL', err: 'false' }, seconds);
    this.markDirty();
  }

  /** Registers the batching metrics and sets their config gauge. */
  enableBatching(config: PodBatchConfig): void {
    const registers = [this.registry];
    this.batchSize ??= new Histogram({
      name: 'ovnkube_controller_pod_batch_size',
      help: 'Number of pods processed in a batch',
      buckets: exponentialBuckets(1, 2, 10),
      registers,
    });
    this.batchDuration ??= new Histogram({
      name: 'ovnkube_controller_pod_batch_processing_duration_seconds',
      help: 'Time spent processing a batch of pods',
      buckets: exponentialBuckets(0.01, 2, 12),
      registers,
    });
    this.batched ??= new Counter({
      name: 'ovnkube_controller_pod_operations_batched_total',
      help: 'Total number of pod operations processed in batches',
      registers,
    });
    this.batchConfig ??= new Gauge({
      name: 'ovnkube_controller_pod_batch_config',
      help: 'Pod batching configuration',
      labelNames: ['config_key'],
      registers,
    });
    this.batchConfig.set({ config_key: 'enabled' }, 1);
    this.batchConfig.set({ config_key: 'window_ms' }, config.windowMs);
    this.batchConfig.set({ config_key: 'batch_size' }, config.batchSize);
    this.batchConfig.set({ config_key: 'parallel_batches' }, config.parallelBatches);
    this.markDirty();
  }

  /** True once batching metrics are registered. */
  get batching(): boolean {
    return this.batchConfig !== undefined;
  }

  /** One processed batch. */
  observeBatch(size: number, seconds: number): void {
    if (!this.batchSize || !this.batchDuration || !this.batched) return;
    this.batchSize.observe(size);
    this.batchDuration.observe(seconds);
    this.batched.inc(size);
    this.markDirty();
  }

  /** The exposition text as of the last `settled()`. */
  text(): string {
    return this.cached;
  }

  /** Renders the text if anything changed; resolves once it reflects every observation made so far. */
  async settled(): Promise<void> {
    while (this.rendering) await this.rendering;
    if (!this.dirty) return;
    this.rendering = (async () => {
      while (this.dirty) {
        this.dirty = false;
        this.cached = await this.registry.metrics();
      }
      this.rendering = undefined;
    })();
    await this.rendering;
  }

  private markDirty(): void {
    this.dirty = true;
  }
}
