/**
 * `oc adm upgrade status` text both ways, for the parity test: oc's expected output parsed into sections, and our
 * JSON printed the way oc prints it. Tables whose cells may span lines (node messages, operator messages) are
 * printed through an emulation of Go's `text/tabwriter` and compared line by line, as oc realigns the columns after
 * every such line.
 */
import type { NodeProgress, UpdateProgress } from '@/lib/health/update-progress/types';
import { formatShortDuration, parseTime } from '@/lib/health/update-progress/util';
import { alignTabbed } from '@/lib/text/tab-writer';

/** oc's non-detailed node tables show this many rows, plus any degraded or unavailable node after them. */
const NODE_ROWS_SHOWN = 10;

/** Go's `time.Duration.String()` of a whole number of nanoseconds (`368.975µs`, `1m29.000368975s`, `0s`). */
export function goDuration(ns: number): string {
  if (ns === 0) return '0s';
  const fraction = (value: number, digits: number) => {
    const whole = Math.floor(value / 10 ** digits);
    const rest = String(value % 10 ** digits)
      .padStart(digits, '0')
      .replace(/0+$/, '');
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
export function ocShortDuration(ns: number): string {
  const text = goDuration(ns);
  const dot = text.indexOf('.');
  if (dot < 0) return formatShortDuration(Math.trunc(ns / 1e9));
  const [, h = '0', m = '0', s = '0'] = /^(?:(\d+)h)?(?:(\d+)m)?(\d+)$/.exec(text.slice(0, dot)) ?? [];
  return formatShortDuration(Number(h) * 3600 + Number(m) * 60 + Number(s));
}

/** Go's `tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)` over `text` (cells end at `\t`, lines at `\n`). */
export function tabwrite(text: string, padding = 3): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return alignTabbed(
    lines.map((line) => line.split('\t')),
    0,
    padding,
  );
}

/** Rows of a single-line tabwriter table, cut at the header's column offsets. */
function table(lines: string[], start: number): Record<string, string>[] {
  const header = lines[start];
  const names = header.split(/\s{2,}/).filter(Boolean);
  const offsets = names.map((name) => header.indexOf(name));
  const rows: Record<string, string>[] = [];
  for (let i = start + 1; i < lines.length && lines[i].trim() !== '' && !lines[i].startsWith('...'); i++) {
    const row: Record<string, string> = {};
    names.forEach((name, c) => {
      row[name] = lines[i].slice(offsets[c], c + 1 < offsets.length ? offsets[c + 1] : undefined).trim();
    });
    rows.push(row);
  }
  return rows;
}

/** The lines of a table as printed, header included, up to a blank line or oc's `...` of omitted rows. */
function tableLines(lines: string[], start: number): string[] {
  const out: string[] = [];
  for (let i = start; i < lines.length && lines[i] !== '' && lines[i] !== '...'; i++) out.push(lines[i]);
  return out;
}

/** What one expected output says, section by section. */
export interface OcStatus {
  updating: boolean;
  /** `Assessment:`, `Target Version:`, ... or, for a completed control plane, its one-line `Summary`. */
  fields: Record<string, string>;
  /** The control-plane node table as printed, or oc's one line when all of them are updated. */
  cpNodes: string[];
  pools: Record<string, string>[];
  /** Per worker pool, its node table as printed. */
  poolNodes: Record<string, string[]>;
  health: Record<string, string>[];
  /** The "Updating Cluster Operators" table as printed (detailed output). */
  updatingOperators: string[];
  detailedHealth: {
    message: string;
    since: string;
    level: string;
    impact: string;
    reference: string;
    description: string;
  }[];
}

/** Parses the text of `oc adm upgrade status` (with or without `--details=all`). */
export function parseOcStatus(text: string): OcStatus {
  const lines = text.split('\n');
  const out: OcStatus = {
    updating: !text.startsWith('The cluster is not updating.'),
    fields: {},
    cpNodes: [],
    pools: [],
    poolNodes: {},
    health: [],
    updatingOperators: [],
    detailedHealth: [],
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const field = /^(Assessment|Target Version|Updating|Completion|Duration|Operator Health):\s+(.*)$/.exec(line);
    if (field) out.fields[field[1]] = field[2];
    else if (/^Update to .* successfully completed at /.test(line)) out.fields.Summary = line;
    else if (line === 'Control Plane Nodes') out.cpNodes = tableLines(lines, i + 1);
    else if (line.startsWith('All control plane nodes successfully updated to ')) out.cpNodes = [line];
    else if (line.startsWith('WORKER POOL')) out.pools = table(lines, i);
    else if (line.startsWith('Worker Pool Nodes: '))
      out.poolNodes[line.slice('Worker Pool Nodes: '.length)] = tableLines(lines, i + 1);
    else if (line.startsWith('SINCE ')) out.health = table(lines, i);
    else if (line === 'Updating Cluster Operators') out.updatingOperators = tableLines(lines, i + 1);
    else if (line.startsWith('Message: ')) {
      const block = {
        message: line.slice('Message: '.length),
        since: '',
        level: '',
        impact: '',
        reference: '',
        description: '',
      };
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

/** An insight's SINCE: oc truncates to whole seconds first. */
export function sinceText(since: string | null, now: number): string {
  if (!since) return '-';
  return formatShortDuration(Math.trunc((now - (parseTime(since) ?? 0)) / 1000));
}

/** An updating operator's SINCE: oc prints the exact duration, fraction and all. */
function operatorSinceText(since: string | null, now: number): string {
  if (!since) return '-';
  return ocShortDuration(Math.round((now - (parseTime(since) ?? 0)) * 1e6));
}

/** oc's `ellipsis`: at most `max` runes, the last three `...` when cut. */
function ellipsis(text: string, max: number): string {
  const runes = [...text];
  return runes.length <= max ? text : `${runes.slice(0, Math.max(max, 3) - 3).join('')}...`;
}

/** The control-plane header fields, or the one-line summary oc prints once every operator is updated. */
export function controlPlaneFields(progress: UpdateProgress): Record<string, string> {
  const cp = progress.controlPlane;
  if (cp.operators.updated === cp.operators.total) {
    // oc dates a completion the ClusterVersion has not recorded yet at its evaluation time.
    const at = cp.completedAt ?? progress.evaluatedAt;
    return {
      Summary: `Update to ${cp.targetVersion ?? 'unknown'} successfully completed at ${at} (duration: ${formatShortDuration(cp.durationSeconds ?? 0)})`,
    };
  }
  let target = `${cp.targetVersion ?? 'unknown'} (from ${cp.previousVersion ?? 'unknown'})`;
  if (cp.targetIsInstall) target = `${cp.targetVersion ?? 'unknown'} (a new install)`;
  else if (cp.previousPartial)
    target = `${cp.targetVersion ?? 'unknown'} (from incomplete ${cp.previousVersion ?? 'unknown'})`;
  else if (cp.multiArchMigration) target = `${cp.targetVersion ?? 'unknown'} to Multi-Architecture`;
  const health = [`${cp.health.healthy} Healthy`];
  if (cp.health.unavailable) health.push(`${cp.health.unavailable} Unavailable`);
  if (cp.health.degraded) health.push(`${cp.health.degraded} Available but degraded`);
  const fields: Record<string, string> = {
    Assessment: cp.assessment,
    'Target Version': target,
    Completion: `${cp.completionPercent}% (${cp.operators.updated} operators updated, ${cp.operators.updating} updating, ${cp.operators.waiting} waiting)`,
    Duration: `${formatShortDuration(cp.durationSeconds ?? 0)}${cp.estimateLabel ? ` (Est. Time Remaining: ${cp.estimateLabel})` : ''}`,
    'Operator Health': health.join(', '),
  };
  if (cp.updatingOperators.length) fields.Updating = cp.updatingOperators.join(', ');
  return fields;
}

/**
 * A pool's node table as oc prints it. Without `detailed`, rows past the tenth are left out unless the node is
 * degraded or unavailable (oc's summary of the omitted rows is not compared). A control plane whose nodes are all
 * updated gets oc's one line instead.
 */
export function nodeTable(nodes: NodeProgress[], options: { detailed: boolean; controlPlane: boolean }): string[] {
  if (nodes.length === 0) return [];
  if (options.controlPlane && nodes.every((node) => node.phase === 'Updated')) {
    return [`All control plane nodes successfully updated to ${nodes[0].version}`];
  }
  let text = 'NAME\tASSESSMENT\tPHASE\tVERSION\tEST\tMESSAGE\n';
  nodes.forEach((node, index) => {
    const shown =
      options.detailed ||
      index < NODE_ROWS_SHOWN ||
      node.assessment === 'Degraded' ||
      node.assessment === 'Unavailable';
    if (shown)
      text += `${[node.name, node.assessment, node.phase, node.version || '?', node.estimate ?? '', node.message].join('\t')}\n`;
  });
  return tabwrite(text);
}

/** The "Updating Cluster Operators" table of the detailed output; empty when oc prints none. */
export function updatingOperatorsTable(progress: UpdateProgress, now: number): string[] {
  const cp = progress.controlPlane;
  if (cp.operators.updated === cp.operators.total || cp.updatingOperatorDetails.length === 0) return [];
  let text = 'NAME\tSINCE\tREASON\tMESSAGE\n';
  for (const op of cp.updatingOperatorDetails) {
    const [first, ...rest] = op.message.split('\n');
    text += `${op.name}\t${operatorSinceText(op.since, now)}\t${ellipsis(op.reason || '-', 20)}\t${first}\n`;
    for (const line of rest) text += `\t\t\t${line}\n`;
  }
  return tabwrite(text);
}

/** One row of the WORKER POOL table. */
export function poolRow(pool: UpdateProgress['workerPools'][number]): Record<string, string> {
  if (pool.totalNodes === 0)
    return { 'WORKER POOL': pool.name, ASSESSMENT: 'Empty', COMPLETION: '', STATUS: '0 Total' };
  let status = `${pool.availableNodes} Available, ${pool.progressingNodes} Progressing, ${pool.drainingNodes} Draining`;
  if (pool.excludedNodes) status += `, ${pool.excludedNodes} Excluded`;
  if (pool.degradedNodes) status += `, ${pool.degradedNodes} Degraded`;
  return {
    'WORKER POOL': pool.name,
    ASSESSMENT: pool.assessment,
    COMPLETION: `${pool.completionPercent}% (${pool.updatedNodes}/${pool.totalNodes})`,
    STATUS: status,
  };
}
