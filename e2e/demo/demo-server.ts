import { spawn } from 'node:child_process';

/** A dashboard on its own embedded fleet, started for the demo walkthroughs. */
export interface DemoDashboard {
  baseURL: string;
  stop(): Promise<void>;
}

/** Starts `server/cli/start.ts --no-build` (the production build) with every scenario; resolves once it answers. */
export async function startDashboard(options: { port: number; speed: number; dataDir: string }): Promise<DemoDashboard> {
  const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'server/cli/start.ts', '--no-build',
    '--port', String(options.port), '--speed', String(options.speed)], {
    env: { ...process.env, UPDATE_HEALTH_DATA_DIR: options.dataDir, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  let output = '';
  const collect = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-4_000); };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    // The launcher runs Next as a child: signal the whole process group.
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  const baseURL = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 120_000;
  while (!(await fetch(`${baseURL}/api/clusters`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the demo dashboard did not start on ${baseURL}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { baseURL, stop };
}
