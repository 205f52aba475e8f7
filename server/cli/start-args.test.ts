import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** `npm start` refuses what would expose every cluster without login, in one line, before it starts anything. */
function start(args: string[]) {
  const result = spawnSync(
    process.execPath,
    ['--conditions=react-server', '--import', 'tsx', 'server/cli/start.ts', '--no-build', ...args],
    {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, UPDATE_HEALTH_AUTH: '' },
    },
  );
  return { code: result.status, stderr: result.stderr };
}

describe('npm start: authentication flags', () => {
  it('refuses a non-loopback bind without login unless told something in front authenticates', () => {
    const refused = start(['--host', '0.0.0.0', '--port', '1']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe(
      "npm start: refusing to serve every cluster's data without login on 0.0.0.0: use --auth openshift, or --insecure-no-auth if something in front authenticates",
    );
  });

  it('rejects an unknown auth mode, --htpasswd for a real cluster and a heap too small to run', () => {
    expect(start(['--auth', 'basic']).stderr).toMatch(/^npm start: --auth must be none or openshift, got "basic"/);
    expect(start(['--kubeconfig', '/dev/null', '--htpasswd', 'users']).stderr).toMatch(
      /^npm start: --htpasswd configures the embedded clusters' login/,
    );
    expect(start(['--max-heap-mb', '12']).stderr).toMatch(
      /^npm start: --max-heap-mb must be an integer of at least 128, got "12"/,
    );
  });

  it('serves HTTPS only with both a certificate and its key, and names an unreadable one before serving anything', () => {
    expect(start(['--tls-cert', 'tls.crt']).stderr).toMatch(
      /^npm start: --tls-cert and --tls-key \(UPDATE_HEALTH_TLS_CERT_FILE\/_KEY_FILE\) go together/,
    );
    const missing = start([
      '--kubeconfig',
      '/dev/null',
      '--tls-cert',
      '/nonexistent/tls.crt',
      '--tls-key',
      '/nonexistent/tls.key',
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toMatch(
      /^npm start: cannot read the TLS certificate \/nonexistent\/tls\.crt: ENOENT/,
    );
  });
});
