/** `npm run bench -- <name>`: runs one benchmark by name. */
import '@/server/cli/check-node';
import { parseArgs } from 'node:util';

const BENCHES: Record<string, () => Promise<unknown>> = {
  sim: async () => (await import('./sim')).runSimBench(),
  ingest: async () => (await import('./ingest')).runIngestBench(),
  'must-gather': async () => {
    const { values } = parseArgs({
      args: process.argv.slice(3),
      options: { 'yaml-mb': { type: 'string' }, json: { type: 'string' } },
      strict: true,
    });
    const yamlMb = values['yaml-mb'] === undefined ? undefined : Number(values['yaml-mb']);
    if (yamlMb !== undefined && !(yamlMb > 0))
      throw new Error(`--yaml-mb must be a positive number, got "${values['yaml-mb']}"`);
    return (await import('./must-gather')).runMustGatherBench({
      yamlBytes: yamlMb === undefined ? undefined : yamlMb * 1e6,
      json: values.json,
    });
  },
  fleet: async () => (await import('./fleet')).runFleetBench(),
  'fleet-footprint': async () => (await import('./fleet-footprint')).runFleetFootprint(),
  history: async () => (await import('./history')).runHistoryBench(),
  'watch-memory': async () => (await import('./watch-memory')).runWatchMemory(),
  'heap-summary': async () => (await import('./heap-summary')).runHeapSummary(),
};

async function main(): Promise<void> {
  const name = process.argv[2];
  const bench = name ? BENCHES[name] : undefined;
  if (!bench) {
    console.error(`error: unknown benchmark "${name ?? ''}" (available: ${Object.keys(BENCHES).join(', ')})`);
    process.exit(2);
  }
  await bench();
  process.exit(0);
}

void main().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
