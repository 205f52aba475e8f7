import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** `npm start` refuses what would expose every cluster without login, in one line, before it starts anything. */
function start(args: string[]) {
  const result = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'server/cli/start.ts', '--no-build', ...args], {
    encoding: 'utf8', timeout: 60_000, env: { ...process.env, UPDATE_HEALTH_AUTH: '' },
  });
  return { code: result.status, stderr: result.stderr };
}

describe('npm start: authentication flags', () => {
  it('refuses a non-loopback bind without login unless told something in front authenticates', () => {
    const refused = start(['--host', '0.0.0.0', '--port', '1']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe(
      'npm start: refusing to serve every cluster\'s data without login on 0.0.0.0: use --auth openshift, or --insecure-no-auth if something in front authenticates');
  });

  it('rejects an unknown auth mode, --htpasswd for a real cluster and a heap too small to run', () => {
    expect(start(['--auth', 'basic']).stderr).toMatch(/^npm start: --auth must be none or openshift, got "basic"/);
    expect(start(['--kubeconfig', '/dev/null', '--htpasswd', 'users']).stderr).toMatch(/^npm start: --htpasswd configures the embedded clusters' login/);
    expect(start(['--max-heap-mb', '12']).stderr).toMatch(/^npm start: --max-heap-mb must be an integer of at least 128, got "12"/);
  });
});
