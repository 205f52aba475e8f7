import '@/server/cli/check-node';
import { configureProcessUsers } from './access/htpasswd';
import { resolveScenarios, startFleet } from './fleet';
import { dumpScenario } from './must-gather-writer';
import { writeKubeconfig } from './kubeconfig';
import { parseSimArgs, type SimArgs } from './cli-args';
import type { Identity } from './auth';
import { fleetMembers, startHub, type EmbeddedHub } from './hub/serve-hub';

async function main(): Promise<void> {
  let args: SimArgs;
  try {
    args = parseSimArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exit(2);
  }
  if (args.dumpMustGather) {
    const [scenario] = resolveScenarios(args.scenarios);
    const written = await dumpScenario(scenario, { dir: args.dumpMustGather, atMs: args.atMs, seed: args.seed });
    const at = new Date(written.at).toISOString();
    console.log(
      `must-gather written: ${written.root} (${scenario.name} at ${at}, ${written.objects} objects, ${written.logs} logs)`,
    );
    process.exit(0);
  }
  let users: string;
  try {
    users = configureProcessUsers(args.htpasswd);
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exit(2);
  }
  const fleet = await startFleet({
    scenarios: args.scenarios,
    size: args.fleet,
    speed: args.speed,
    seed: args.seed,
    basePort: args.port,
  });
  let hub: EmbeddedHub | undefined;
  try {
    hub = args.hub
      ? await startHub(fleetMembers(fleet), { tokenTtlSeconds: args.tokenTtlSeconds, realTime: true })
      : undefined;
  } catch (error) {
    await fleet.close();
    throw error;
  }
  const kubeconfig = (identity: Identity) =>
    hub
      ? hub.kubeconfig(identity, args.memberContexts ? fleet.kubeconfigEntries(identity) : [])
      : fleet.kubeconfig(identity);
  writeKubeconfig(args.kubeconfig, kubeconfig('reader'));
  if (args.adminKubeconfig) writeKubeconfig(args.adminKubeconfig, kubeconfig('admin'));
  const urls =
    fleet.clusters.length > 20
      ? `${fleet.clusters.length} clusters (${fleet.clusters[0].id}=${fleet.clusters[0].url} ... ${fleet.clusters.at(-1)!.id}=${fleet.clusters.at(-1)!.url})`
      : fleet.clusters.map((running) => `${running.id}=${running.url}`).join(' ');
  const hubText = hub
    ? ` hub=${hub.server.url} cluster-proxy=${hub.proxy.url} profiles-namespace=${hub.namespace}`
    : '';
  console.log(`simulator ready: ${urls}${hubText} speed=${args.speed}x kubeconfig=${args.kubeconfig} ${users}`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    Promise.all([hub?.close(), fleet.close()]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
