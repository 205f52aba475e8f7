/**
 * The examples of `oc adm upgrade status`'s own test suite (openshift/oc `pkg/cli/admin/upgrade/status/examples/`,
 * copied in server/fixtures/oc-upgrade/status/) as update-progress inputs, for the parity test and the detector test.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import type { KubeObject } from '@/lib/k8s/types';
import type { UpdateProgressInput } from '@/lib/health/update-progress/update-progress';
import { parseTime } from '@/lib/health/update-progress/util';
import { parseAlerts } from '@/server/metrics/alerts';

/** Where the examples live. */
export const DIR = join(process.cwd(), 'server/fixtures/oc-upgrade/status');
/** The example names (`<name>-cv.yaml`), sorted. */
export const CASES = readdirSync(DIR)
  .filter((file) => file.endsWith('-cv.yaml'))
  .map((file) => file.slice(0, -'-cv.yaml'.length))
  .sort();

function load(file: string): unknown {
  return yaml.load(readFileSync(join(DIR, file), 'utf8'));
}

function items(file: string): KubeObject[] {
  return existsSync(join(DIR, file)) ? ((load(file) as { items?: KubeObject[] }).items ?? []) : [];
}

/** The ClusterVersion file holds either the object or a `List` of it (oc's mock loader accepts both). */
function clusterVersionOf(name: string): KubeObject {
  const loaded = load(`${name}-cv.yaml`) as KubeObject & { items?: KubeObject[] };
  return loaded.kind === 'List' && loaded.items ? loaded.items[0] : loaded;
}

/**
 * oc's mock inputs. The optional ones are what the product reads beside the objects: alerts (`oc adm inspect-alerts`
 * output, parsed as the product parses a Prometheus answer) and the machine-config-operator Deployment.
 */
export function inputOf(name: string): UpdateProgressInput {
  const input: UpdateProgressInput = {
    clusterVersion: clusterVersionOf(name),
    clusterOperators: items(`${name}-co.yaml`),
    machineConfigPools: items(`${name}-mcp.yaml`),
    machineConfigs: items(`${name}-mc.yaml`),
    nodes: items(`${name}-node.yaml`),
  };
  if (existsSync(join(DIR, `${name}-alerts.json`)))
    input.alerts = parseAlerts(JSON.parse(readFileSync(join(DIR, `${name}-alerts.json`), 'utf8')));
  if (existsSync(join(DIR, `${name}-mco-deployment.yaml`)))
    input.mcoDeployment = load(`${name}-mco-deployment.yaml`) as KubeObject;
  return input;
}

/** oc's examples_test "now": the latest condition transition of the ClusterVersion and ClusterOperators, + 368975 ns. */
export function mockNow(input: UpdateProgressInput): number {
  let latest = 0;
  for (const object of [input.clusterVersion as KubeObject, ...input.clusterOperators]) {
    for (const condition of (object.status as { conditions?: { lastTransitionTime?: string }[] } | undefined)
      ?.conditions ?? []) {
      latest = Math.max(latest, parseTime(condition.lastTransitionTime) ?? 0);
    }
  }
  return latest + 0.368975;
}
