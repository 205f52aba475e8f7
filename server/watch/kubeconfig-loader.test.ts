import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeConfig } from '@kubernetes/client-node';
import { loadConfig, loadFileOnce } from './kubeconfig-loader';

const kubeconfig = (token: string) => `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: 'https://127.0.0.1:6443' } }]
users: [{ name: u, user: { token: ${token} } }]
contexts: [{ name: one, context: { cluster: c, user: u } }, { name: two, context: { cluster: c, user: u } }]
current-context: one
`;

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('loadFileOnce', () => {
  it('takes every context from one read, and a token rotated in place (same size) on the next load', () => {
    dir = mkdtempSync(join(tmpdir(), 'uh-kubeconfig-'));
    const path = join(dir, 'fleet.yaml');
    writeFileSync(path, kubeconfig('token-aaaa'));
    const token = (context: string) =>
      loadConfig((kc: KubeConfig) => loadFileOnce(kc, path), context).getCurrentUser()?.token;
    expect([token('one'), token('two')]).toEqual(['token-aaaa', 'token-aaaa']);
    writeFileSync(path, kubeconfig('token-bbbb'));
    expect(token('two')).toBe('token-bbbb');
  });
});
