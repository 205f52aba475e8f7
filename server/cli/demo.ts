/**
 * `npm run demo`: records the narrated walkthroughs (e2e/demo) against the production build on the embedded fleet:
 * per scenario a video and numbered screenshots in `demo-output/<scenario>/`, plus `demo-output/index.html`.
 * Then checks what it wrote (videos decode and run > 5 s, frames and screenshots are not blank).
 */
import './check-node';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { delimiter, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_SCENARIOS } from '@/e2e/demo/scenarios';
import { SCENARIO_NAMES, type ScenarioName } from '@/server/simulator/types';
import { checkScreenshot, checkVideo } from './demo-check';
import { collectVideo, readManifests, VIDEO_FILE, writeIndex } from './demo-report';
import { needsBuild } from './build-state';

const USAGE = `usage: npm run demo -- [--scenario NAME] [--headed] [--output DIR]
  --scenario NAME  record one scenario (${SCENARIO_NAMES.join(', ')})
  --headed         show the browser (needs a display: DISPLAY, or xvfb-run from Debian's 'xvfb' package)
  --output DIR     where to write (default demo-output)`;

function fail(message: string, code = 2): never {
  console.error(`npm run demo: ${message}`);
  if (code === 2) console.error(USAGE);
  process.exit(code);
}

function parse() {
  try {
    return parseArgs({
      options: {
        scenario: { type: 'string' },
        headed: { type: 'boolean' },
        output: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
}

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const path = join(dir, command);
    if (dir && existsSync(path) && statSync(path).isFile()) return path;
  }
  return undefined;
}

/** Playwright records video with its own ffmpeg build, which is not downloadable here: link Debian's in its place. */
function linkFfmpeg(root: string): string {
  const ffmpeg = onPath('ffmpeg');
  if (!ffmpeg || !onPath('ffprobe'))
    fail("video needs ffmpeg and ffprobe: install Debian's package 'ffmpeg' (apt-get install -y ffmpeg)", 1);
  const browsers = JSON.parse(readFileSync(join(root, 'node_modules', 'playwright-core', 'browsers.json'), 'utf8')) as {
    browsers: { name: string; revision: string }[];
  };
  const revision = browsers.browsers.find((b) => b.name === 'ffmpeg')?.revision;
  if (!revision) fail('node_modules/playwright-core/browsers.json names no ffmpeg revision', 1);
  const browsersPath = resolve(process.env.PLAYWRIGHT_BROWSERS_PATH || join(root, '.pw-browsers'));
  const dir = join(browsersPath, `ffmpeg-${revision}`);
  const link = join(dir, 'ffmpeg-linux');
  mkdirSync(dir, { recursive: true });
  let current: string | undefined;
  try {
    current = readlinkSync(link);
  } catch {
    current = existsSync(link) ? link : undefined;
  }
  if (current === undefined) symlinkSync(ffmpeg, link);
  else if (current !== link && current !== ffmpeg) {
    rmSync(link);
    symlinkSync(ffmpeg, link);
  }
  return browsersPath;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolvePromise(code ?? (signal ? 1 : 0));
    });
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function main(): Promise<void> {
  const args = parse();
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const started = Date.now();
  const root = resolve('.');
  if (args.scenario !== undefined && !(SCENARIO_NAMES as readonly string[]).includes(args.scenario)) {
    fail(`unknown scenario "${args.scenario}"; known: ${SCENARIO_NAMES.join(', ')}`);
  }
  const scenarios = (args.scenario ? [args.scenario] : DEMO_SCENARIOS.map((s) => s.name)) as ScenarioName[];
  let wrapper: string[] = [];
  if (args.headed && !process.env.DISPLAY) {
    const xvfb = onPath('xvfb-run');
    if (!xvfb)
      fail(
        "--headed needs a display: set DISPLAY, or install Debian's package 'xvfb' so the browser runs under xvfb-run",
      );
    wrapper = [xvfb, '-a', '-s', '-screen 0 1280x800x24'];
  }
  const browsersPath = linkFfmpeg(root);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    PLAYWRIGHT_BROWSERS_PATH: browsersPath,
  };

  if (needsBuild(root)) {
    console.log('npm run demo: building the dashboard (sources changed since the last build) ...');
    const code = await run(join(root, 'node_modules', '.bin', 'next'), ['build'], env);
    if (code !== 0) fail(`next build failed (exit ${code})`, code);
  }

  const out = resolve(args.output ?? 'demo-output');
  const results = join(out, '.results');
  for (const name of scenarios) rmSync(join(out, name), { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const playwright = [
    join(root, 'node_modules', '.bin', 'playwright'),
    'test',
    '--project',
    'demo',
    '--output',
    results,
    ...(args.scenario ? ['--grep', escapeRegExp(`[${args.scenario}]`)] : []),
  ];
  const [command, ...rest] = [...wrapper, ...playwright];
  const recordStarted = Date.now();
  const code = await run(command, rest, {
    ...env,
    PW_VIDEO: 'on',
    PW_DEMO_ONLY: '1',
    PW_HEADED: args.headed ? '1' : '0',
    DEMO_OUTPUT: out,
  });
  const recordSeconds = (Date.now() - recordStarted) / 1000;
  if (code !== 0) fail(`the walkthroughs failed (playwright exit ${code}); see the report above`, code);

  const order = DEMO_SCENARIOS.map((s) => s.name);
  const manifests = readManifests(out, order);
  const problems: string[] = [];
  for (const name of scenarios) {
    if (!manifests.some((m) => m.scenario === name)) problems.push(`${name}: no steps recorded`);
  }
  for (const manifest of manifests.filter((m) => scenarios.includes(m.scenario as ScenarioName))) {
    const dir = join(out, manifest.scenario);
    if (!collectVideo(out, manifest)) problems.push(`${manifest.scenario}: no video in ${manifest.resultsDir}`);
    const video = checkVideo(join(dir, VIDEO_FILE));
    problems.push(...video.problems);
    const shots = manifest.steps.filter((s) => s.screenshot);
    if (shots.length === 0) problems.push(`${manifest.scenario}: no screenshots`);
    for (const s of shots) problems.push(...checkScreenshot(join(dir, s.screenshot ?? '')));
    console.log(`  ${manifest.scenario}: ${video.seconds?.toFixed(1) ?? '?'} s video, ${shots.length} screenshots`);
  }
  const index = writeIndex(out, manifests);
  if (problems.length > 0) fail(`the recording is not usable:\n  - ${problems.join('\n  - ')}`, 1);
  rmSync(results, { recursive: true, force: true });
  console.log(
    `npm run demo: ${manifests.length} scenario(s) in ${relative(root, out) || '.'}/, open ${relative(root, index)}` +
      ` (recorded in ${recordSeconds.toFixed(0)} s, ${((Date.now() - started) / 1000).toFixed(0)} s in all)`,
  );
}

void main().catch((error: unknown) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error), 1));
