/**
 * `npm run analyze -- <path...> [--json] [--now <RFC3339>] [--name NAME]`: analyzes a must-gather (directory or
 * .tar/.tar.gz), a resourcewatch tree, or loose `oc get -o yaml` dumps with the same detectors as the live
 * dashboard. Prints findings and update progress as text, or the health JSON (`{cluster, findings,
 * updateProgress, updateRecommendations, sources}`, plus `hostedClusters` — one health per HostedCluster or NodePool
 * group — when the input has HyperShift objects, v1alpha1 or v1beta1) with `--json`. Exit 0 when analyzed, 1 when
 * the input could not be read, 2 on usage.
 *
 * Like oc's file mode, `<name>-alerts.json` beside a `<name>-cv.yaml` input is read too. `--recommend [--version V
 * | --show-outdated-releases]` prints what `oc adm upgrade recommend` prints instead (its JSON with `--json`).
 * Exit 1 when oc would fail (e.g. unaccepted issues for `--version`), with oc's `error: ...` on stderr.
 */
import './check-node';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatRecommend, RecommendUsageError } from '@/lib/recommend/format-recommend';
import { analyzeOffline } from '@/server/offline/analyze-offline';
import { OfflineInputError } from '@/server/offline/errors';
import { formatAnalysis } from '@/server/offline/format-text';

const USAGE =
  'usage: npm run analyze -- <path...> [--json] [--now <RFC3339>] [--name NAME] [--recommend [--version V | --show-outdated-releases]]';

function fail(code: number, message: string): never {
  process.stderr.write(`analyze: ${message.split('\n')[0]}${code === 2 ? `\n${USAGE}` : ''}\n`);
  process.exit(code);
}

function parse() {
  try {
    return parseArgs({
      options: {
        json: { type: 'boolean' },
        now: { type: 'string' },
        name: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        recommend: { type: 'boolean' },
        version: { type: 'string' },
        'show-outdated-releases': { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    fail(2, (error as Error).message);
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parse();
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals.length === 0) fail(2, 'no input path given');
  let now: number | undefined;
  if (values.now !== undefined) {
    now = Date.parse(values.now);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(values.now) || !Number.isFinite(now))
      fail(2, `--now is not an RFC 3339 time: ${values.now}`);
  }
  if (!values.recommend && (values.version !== undefined || values['show-outdated-releases']))
    fail(2, '--version and --show-outdated-releases need --recommend');
  if (values.recommend) {
    await recommend(positionals, {
      now,
      name: values.name,
      json: values.json,
      version: values.version,
      showOutdatedReleases: values['show-outdated-releases'],
    });
    return;
  }
  try {
    const analysis = await analyzeOffline(withSiblingAlerts(positionals), { now, name: values.name });
    const json = analysis.hosted.length ? { ...analysis.health, hostedClusters: analysis.hosted } : analysis.health;
    process.stdout.write(values.json ? `${JSON.stringify(json, null, 2)}\n` : formatAnalysis(analysis));
  } catch (error) {
    if (error instanceof OfflineInputError) fail(1, error.message);
    fail(1, `unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** oc's file mode reads `<name>-alerts.json` beside `<name>-cv.yaml` (when it exists and is not given already). */
function withSiblingAlerts(paths: string[]): string[] {
  const siblings = paths
    .filter((path) => path.endsWith('-cv.yaml'))
    .map((path) => path.replace(/-cv\.yaml$/, '-alerts.json'));
  return [...paths, ...siblings.filter((path) => !paths.includes(path) && existsSync(path))];
}

interface RecommendFlags {
  now?: number;
  name?: string;
  json?: boolean;
  version?: string;
  showOutdatedReleases?: boolean;
}

async function recommend(paths: string[], flags: RecommendFlags): Promise<void> {
  let analysis;
  try {
    analysis = await analyzeOffline(withSiblingAlerts(paths), { now: flags.now, name: flags.name });
  } catch (error) {
    if (error instanceof OfflineInputError) fail(1, error.message);
    fail(1, `unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
  }
  const recommendations = analysis.health.updateRecommendations;
  if (!recommendations)
    fail(1, 'No cluster version information available: the inputs hold no ClusterVersion "version"');
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(recommendations, null, 2)}\n`);
    return;
  }
  let output;
  try {
    output = formatRecommend(recommendations, {
      version: flags.version,
      showOutdatedReleases: flags.showOutdatedReleases,
    });
  } catch (error) {
    if (error instanceof RecommendUsageError) fail(2, error.message);
    throw error;
  }
  process.stdout.write(output.stdout);
  process.stderr.write(output.stderr);
  if (output.error !== undefined) {
    process.stderr.write(`error: ${output.error}\n`);
    process.exitCode = 1;
  }
}

await main();
