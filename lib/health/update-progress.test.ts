/**
 * Parity with `oc adm upgrade status` on every example of its own test suite (openshift/oc
 * `pkg/cli/admin/upgrade/status/examples/`, copied in server/fixtures/oc-upgrade/status/): our JSON must say what
 * oc's expected text output says.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import type { KubeObject } from '@/lib/k8s/types';
import { computeUpdateProgress, updateProgress, type UpdateProgressInput } from '@/lib/health/update-progress';
import type { NodeProgress, UpdateProgress } from '@/lib/health/update-progress-types';
import { formatShortDuration, parseTime } from '@/lib/health/update-progress-util';
import { DEFAULT_HEALTH_CONFIG, type Snapshot } from '@/lib/health/types';

const DIR = join(process.cwd(), 'server/fixtures/oc-upgrade/status');
const CASES = readdirSync(DIR).filter((file) => file.endsWith('-cv.yaml')).map((file) => file.slice(0, -'-cv.yaml'.length)).sort();

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

function inputOf(name: string): UpdateProgressInput {
  return {
    clusterVersion: clusterVersionOf(name),
    clusterOperators: items(`${name}-co.yaml`),
    machineConfigPools: items(`${name}-mcp.yaml`),
    machineConfigs: items(`${name}-mc.yaml`),
    nodes: items(`${name}-node.yaml`),
  };
}

/** oc's examples_test "now": the latest condition transition of the ClusterVersion and ClusterOperators, + 368975 ns. */
function mockNow(input: UpdateProgressInput): number {
  let latest = 0;
  for (const object of [input.clusterVersion as KubeObject, ...input.clusterOperators]) {
    for (const condition of (object.status as { conditions?: { lastTransitionTime?: string }[] } | undefined)?.conditions ?? []) {
      latest = Math.max(latest, parseTime(condition.lastTransitionTime) ?? 0);
    }
  }
  return latest + 0.368975;
}

// ---- parsing of oc's text output -------------------------------------------------------------------------------

/** Rows of a tabwriter table, cut at the header's column offsets. */
function table(lines: string[], start: number): { rows: Record<string, string>[]; end: number } {
  const header = lines[start];
  const names = header.split(/\s{2,}/).filter(Boolean);
  const offsets = names.map((name) => header.indexOf(name));
  const rows: Record<string, string>[] = [];
  let i = start + 1;
  for (; i < lines.length && lines[i].trim() !== '' && !lines[i].startsWith('...'); i++) {
    const row: Record<string, string> = {};
    names.forEach((name, c) => { row[name] = lines[i].slice(offsets[c], c + 1 < offsets.length ? offsets[c + 1] : undefined).trim(); });
    rows.push(row);
  }
  return { rows, end: i };
}

interface Expected {
  updating: boolean;
  fields: Record<string, string>;
  cpNodes: Record<string, string>[];
  pools: Record<string, string>[];
  poolNodes: Record<string, Record<string, string>[]>;
  health: Record<string, string>[];
  updatingOperators: Record<string, string>[];
  detailedHealth: { message: string; since: string; level: string; impact: string; reference: string; description: string }[];
}

function parseOutput(text: string): Expected {
  const lines = text.split('\n');
  const out: Expected = { updating: !text.startsWith('The cluster is not updating.'), fields: {}, cpNodes: [], pools: [], poolNodes: {}, health: [], updatingOperators: [], detailedHealth: [] };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const field = /^(Assessment|Target Version|Updating|Completion|Duration|Operator Health):\s+(.*)$/.exec(line);
    if (field) out.fields[field[1]] = field[2];
    else if (line === 'Control Plane Nodes') out.cpNodes = table(lines, i + 1).rows;
    else if (line.startsWith('WORKER POOL')) out.pools = table(lines, i).rows;
    else if (line.startsWith('Worker Pool Nodes: ')) out.poolNodes[line.slice('Worker Pool Nodes: '.length)] = table(lines, i + 1).rows;
    else if (line.startsWith('SINCE ')) out.health = table(lines, i).rows;
    else if (line === 'Updating Cluster Operators') out.updatingOperators = table(lines, i + 1).rows;
    else if (line.startsWith('Message: ')) {
      const block = { message: line.slice('Message: '.length), since: '', level: '', impact: '', reference: '', description: '' };
      for (i++; i < lines.length && lines[i] !== ''; i++) {
        const entry = /^ {2}(Since|Level|Impact|Reference|Description):\s+(.*)$/.exec(lines[i]);
        if (entry) (block as Record<string, string>)[entry[1].toLowerCase()] = entry[2];
        else if (/^ {15}, /.test(lines[i])) block.description += `\n${lines[i].slice(17)}`;
      }
      out.detailedHealth.push(block);
    }
  }
  return out;
}

// ---- rendering our JSON the way oc prints it --------------------------------------------------------------------

/** Go's `time.Duration.String()` of a whole number of nanoseconds (`368.975µs`, `1m29.000368975s`, `0s`). */
function goDuration(ns: number): string {
  if (ns === 0) return '0s';
  const fraction = (value: number, digits: number) => {
    const whole = Math.floor(value / 10 ** digits);
    const rest = String(value % 10 ** digits).padStart(digits, '0').replace(/0+$/, '');
    return rest ? `${whole}.${rest}` : String(whole);
  };
  if (ns < 1_000) return `${ns}ns`;
  if (ns < 1_000_000) return `${fraction(ns, 3)}µs`;
  if (ns < 1_000_000_000) return `${fraction(ns, 6)}ms`;
  const seconds = Math.floor(ns / 1e9);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const secondsText = `${fraction((seconds % 60) * 1e9 + (ns % 1e9), 9)}s`;
  if (hours) return `${hours}h${minutes}m${secondsText}`;
  return minutes ? `${minutes}m${secondsText}` : secondsText;
}

/**
 * oc's `shortDuration` as it really behaves: a duration with a fraction is cut at the dot and re-read as seconds, so
 * 368.975µs (a mocked "now" 368975 ns after a transition) prints as `6m8s`. The expected outputs carry that, so the
 * rendering here does too; our JSON holds the exact timestamp.
 */
function ocShortDuration(ns: number): string {
  const text = goDuration(ns);
  const dot = text.indexOf('.');
  if (dot < 0) return formatShortDuration(Math.trunc(ns / 1e9));
  const [, h = '0', m = '0', s = '0'] = /^(?:(\d+)h)?(?:(\d+)m)?(\d+)$/.exec(text.slice(0, dot)) ?? [];
  return formatShortDuration(Number(h) * 3600 + Number(m) * 60 + Number(s));
}

/** An insight's SINCE: oc truncates to whole seconds first. */
function sinceText(since: string | null, now: number): string {
  if (!since) return '-';
  return formatShortDuration(Math.trunc((now - (parseTime(since) ?? 0)) / 1000));
}

/** An updating operator's SINCE: oc prints the exact duration, fraction and all. */
function operatorSinceText(since: string | null, now: number): string {
  if (!since) return '-';
  return ocShortDuration(Math.round((now - (parseTime(since) ?? 0)) * 1e6));
}

function nodeRow(node: NodeProgress): Record<string, string> {
  return { NAME: node.name, ASSESSMENT: node.assessment, PHASE: node.phase, VERSION: node.version || '?', EST: node.estimate ?? '', MESSAGE: node.message };
}

function controlPlaneFields(progress: UpdateProgress): Record<string, string> {
  const cp = progress.controlPlane;
  const from = cp.targetIsInstall ? ' (a new install)' : ` (from ${cp.previousPartial ? 'incomplete ' : ''}${cp.previousVersion ?? 'unknown'})`;
  const health = [`${cp.health.healthy} Healthy`];
  if (cp.health.unavailable) health.push(`${cp.health.unavailable} Unavailable`);
  if (cp.health.degraded) health.push(`${cp.health.degraded} Available but degraded`);
  const fields: Record<string, string> = {
    Assessment: cp.assessment,
    'Target Version': `${cp.targetVersion ?? 'unknown'}${from}`,
    Completion: `${cp.completionPercent}% (${cp.operators.updated} operators updated, ${cp.operators.updating} updating, ${cp.operators.waiting} waiting)`,
    Duration: `${formatShortDuration(cp.durationSeconds ?? 0)}${cp.estimateLabel ? ` (Est. Time Remaining: ${cp.estimateLabel})` : ''}`,
    'Operator Health': health.join(', '),
  };
  if (cp.updatingOperators.length) fields.Updating = cp.updatingOperators.join(', ');
  return fields;
}

function poolRow(pool: UpdateProgress['workerPools'][number]): Record<string, string> {
  if (pool.totalNodes === 0) return { 'WORKER POOL': pool.name, ASSESSMENT: 'Empty', COMPLETION: '', STATUS: '0 Total' };
  let status = `${pool.availableNodes} Available, ${pool.progressingNodes} Progressing, ${pool.drainingNodes} Draining`;
  if (pool.excludedNodes) status += `, ${pool.excludedNodes} Excluded`;
  if (pool.degradedNodes) status += `, ${pool.degradedNodes} Degraded`;
  return { 'WORKER POOL': pool.name, ASSESSMENT: pool.assessment, COMPLETION: `${pool.completionPercent}% (${pool.updatedNodes}/${pool.totalNodes})`, STATUS: status };
}

// ---- the parity table --------------------------------------------------------------------------------------------

describe('computeUpdateProgress parity with oc adm upgrade status examples', () => {
  it('finds the examples', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(8);
  });

  describe.each(CASES)('%s', (name) => {
    const input = inputOf(name);
    const now = mockNow(input);
    const progress = computeUpdateProgress(input, now);
    const expected = parseOutput(readFileSync(join(DIR, `${name}.output`), 'utf8'));
    const detailedPath = join(DIR, `${name}.detailed-output`);
    const detailed = existsSync(detailedPath) ? parseOutput(readFileSync(detailedPath, 'utf8')) : undefined;

    it('agrees on whether the cluster is updating', () => {
      expect(progress.updating).toBe(expected.updating);
    });

    if (!expected.updating) {
      it('not updating: control plane at its target version, no insights', () => {
        expect(progress.controlPlane.assessment).toBe('Completed');
        expect(progress.insights).toEqual([]);
      });
      return;
    }

      it('control plane: assessment, versions, completion, counts, duration, estimate, health, updating', () => {
        expect(controlPlaneFields(progress)).toEqual(expected.fields);
      });

      it('control-plane nodes: assessment, phase, version, estimate, message per row', () => {
        expect(progress.controlPlane.nodes.map(nodeRow)).toEqual(expected.cpNodes);
      });

      it('worker pools: assessment, completion %, updated/total, status counts', () => {
        const shown = expected.pools.length ? progress.workerPools.map(poolRow) : [];
        expect(shown).toEqual(expected.pools);
      });

      it('worker pool nodes per row', () => {
        const actual = Object.fromEntries(progress.workerPools.filter((pool) => pool.nodes.length > 0)
          .map((pool) => [pool.name, pool.nodes.map(nodeRow)]));
        expect(actual).toEqual(expected.poolNodes);
      });

      it('insights: since, level, impact and message per row, in order', () => {
        const rows = progress.insights.map((insight) => ({
          SINCE: sinceText(insight.since, now), LEVEL: insight.level, IMPACT: insight.impact, MESSAGE: insight.message,
        }));
        expect(rows).toEqual(expected.health);
      });

      it.runIf(detailed !== undefined)('detailed output: control plane, updating operators, insight descriptions and references', () => {
        const operators = progress.controlPlane.updatingOperatorDetails.map((op) => ({
          NAME: op.name, SINCE: operatorSinceText(op.since, now), REASON: op.reason || '-', MESSAGE: op.message,
        }));
        expect(controlPlaneFields(progress)).toEqual(detailed?.fields);
      expect(progress.controlPlane.nodes.map(nodeRow)).toEqual(detailed?.cpNodes);
        expect(operators).toEqual(detailed?.updatingOperators ?? []);
        if (detailed?.detailedHealth.length) {
          expect(progress.insights.map((insight) => ({
            message: insight.message, since: sinceText(insight.since, now), level: insight.level, impact: insight.impact,
            reference: insight.reference ?? '', description: insight.description,
          }))).toEqual(detailed.detailedHealth);
        }
      });
  });
});

describe('updateProgress detector', () => {
  const input = inputOf('4.14.1-degraded');
  const now = mockNow(input);
  const snapshot: Snapshot = {
    objects: {
      clusterversions: [input.clusterVersion as KubeObject],
      clusteroperators: input.clusterOperators,
      machineconfigpools: input.machineConfigPools,
      machineconfigs: input.machineConfigs,
      nodes: input.nodes,
    },
    transitions: [], logs: [], probes: [],
  };
  const output = updateProgress.detect(snapshot, { now, config: DEFAULT_HEALTH_CONFIG });

  it('maps insight levels to severities with stable ids, evidence and remediation', () => {
    const apiserver = output.findings.find((f) => f.id === 'update-progress/co-degraded:clusteroperator:kube-apiserver');
    expect(apiserver?.severity).toBe('critical');
    expect(apiserver?.subject).toMatchObject({ kind: 'ClusterOperator', name: 'kube-apiserver' });
    expect(apiserver?.since).toBe('2023-11-03T16:28:36Z');
    expect(apiserver?.evidence[0]).toMatchObject({ kind: 'condition', label: 'Degraded=True (NodeController_MasterNodesReady)' });
    expect(apiserver?.remediation.map((step) => step.command)).toContain('oc get clusteroperator kube-apiserver -o yaml');
    expect(apiserver?.remediation.map((step) => step.command)).toContain('oc adm upgrade status --details=all');
    const failing = output.findings.find((f) => f.id === 'update-progress/cv-failing:clusterversion:version');
    expect(failing?.severity).toBe('warning');
    expect(new Set(output.findings.map((f) => f.id)).size).toBe(output.findings.length);
  });

  it('summarizes a stalled update as info and samples progress', () => {
    const summary = output.findings.find((f) => f.id === 'update-progress/summary');
    expect(summary?.severity).toBe('info');
    expect(output.samples).toEqual({ completionPercent: 97, updatedOperators: 32, unavailableOperators: 1, degradedOperators: 4, updatedNodes: 0 });
  });

  it('reports an idle cluster with a single ok finding', () => {
    const idle = inputOf('not-upgrading');
    const result = updateProgress.detect({ ...snapshot, objects: { clusterversions: [idle.clusterVersion as KubeObject], clusteroperators: idle.clusterOperators, machineconfigpools: idle.machineConfigPools, machineconfigs: idle.machineConfigs, nodes: idle.nodes } }, { now: mockNow(idle), config: DEFAULT_HEALTH_CONFIG });
    expect(result.findings.map((f) => [f.id, f.severity])).toEqual([['update-progress/summary', 'ok']]);
  });

  it('yields nothing but null samples without a ClusterVersion', () => {
    const result = updateProgress.detect({ objects: {}, transitions: [], logs: [], probes: [] }, { now, config: DEFAULT_HEALTH_CONFIG });
    expect(result.findings).toEqual([]);
    expect(result.samples?.completionPercent).toBeNull();
  });
});
