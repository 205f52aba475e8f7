/** `npm run bench -- <name>`: runs one benchmark by name. */
const BENCHES: Record<string, () => Promise<unknown>> = {
  sim: async () => (await import('./sim')).runSimBench(),
  ingest: async () => (await import('./ingest')).runIngestBench(),
  'must-gather': async () => (await import('./must-gather')).runMustGatherBench(),
  fleet: async () => (await import('./fleet')).runFleetBench(),
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
