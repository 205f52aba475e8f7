/**
 * `npm run analyze -- <path...> [--json] [--now <RFC3339>] [--name NAME]`: analyzes a must-gather (directory or
 * .tar/.tar.gz), a resourcewatch tree, or loose `oc get -o yaml` dumps with the same detectors as the live
 * dashboard. Prints findings and update progress as text, or the health JSON (`{cluster, findings,
 * updateProgress, sources}`, plus `hostedClusters` — one health per HostedCluster or NodePool group — when the
 * input has HyperShift objects, v1alpha1 or v1beta1) with `--json`. Exit 0 when analyzed, 1 when the input could not be read, 2 on usage.
 */
import { parseArgs } from 'node:util';
import { analyzeOffline } from '@/server/offline/analyze-offline';
import { OfflineInputError } from '@/server/offline/errors';
import { formatAnalysis } from '@/server/offline/format-text';

const USAGE = 'usage: npm run analyze -- <path...> [--json] [--now <RFC3339>] [--name NAME]';

function fail(code: number, message: string): never {
  process.stderr.write(`analyze: ${message.split('\n')[0]}${code === 2 ? `\n${USAGE}` : ''}\n`);
  process.exit(code);
}

function parse() {
  try {
    return parseArgs({
      options: { json: { type: 'boolean' }, now: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
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
    if (!/^\d{4}-\d{2}-\d{2}T/.test(values.now) || !Number.isFinite(now)) fail(2, `--now is not an RFC 3339 time: ${values.now}`);
  }
  try {
    const analysis = await analyzeOffline(positionals, { now, name: values.name });
    const json = analysis.hosted.length ? { ...analysis.health, hostedClusters: analysis.hosted } : analysis.health;
    process.stdout.write(values.json ? `${JSON.stringify(json, null, 2)}\n` : formatAnalysis(analysis));
  } catch (error) {
    if (error instanceof OfflineInputError) fail(1, error.message);
    fail(1, `unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
  }
}

await main();
