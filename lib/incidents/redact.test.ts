import { describe, expect, it } from 'vitest';
import { redact, Redactor } from './redact';

const DOCKERCONFIG = Buffer.from(
  JSON.stringify({ auths: { 'quay.io': { auth: 'dXNlcjpzM2NyM3Q=', email: 'a@b.c' } } }),
).toString('base64');
const LAST_APPLIED = JSON.stringify({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  data: { DB_PASSWORD: 'hunter2-very-secret' },
});
const TOKEN = 'sha256~AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

describe('redact', () => {
  it('replaces Secret data and stringData values, keeping keys', () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { password: 'aHVudGVyMg==' },
      stringData: { user: 'admin' },
    };
    const { value, entries } = redact(secret, 'objects[0]');
    expect(value.data).toStrictEqual({ password: '<redacted:secret-data:0001>' });
    expect(value.stringData).toStrictEqual({ user: '<redacted:secret-data:0002>' });
    expect(entries.map((e) => e.path)).toStrictEqual(['objects[0].data.password', 'objects[0].stringData.user']);
  });

  it('replaces pull secrets anywhere and last-applied-configuration values', () => {
    const obj = {
      kind: 'Deployment',
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': LAST_APPLIED, keep: 'me' } },
      data: { '.dockerconfigjson': DOCKERCONFIG },
    };
    const { value, entries } = redact(obj);
    const text = JSON.stringify(value);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain(DOCKERCONFIG);
    expect(value.metadata.annotations.keep).toBe('me');
    expect(entries.map((e) => e.reason).sort()).toStrictEqual(['last-applied-configuration', 'pull-secret']);
    expect(entries.find((e) => e.reason === 'pull-secret')?.path).toBe('$.data[".dockerconfigjson"]');
  });

  it('replaces credentials in fields and in text (kubeconfig in a ConfigMap, bearer headers, OpenShift tokens)', () => {
    const kubeconfig = `apiVersion: v1\nusers:\n- name: admin\n  user:\n    token: ${TOKEN}\n    client-key-data: LS0tLS1CRUdJTi\n`;
    const { value } = redact({
      data: { kubeconfig },
      spec: { password: 'p4ss' },
      message: `GET /apis failed, Authorization: Bearer abcdefghijklmnop1234 (password=letmein)`,
    });
    const text = JSON.stringify(value);
    for (const secret of [TOKEN, 'LS0tLS1CRUdJTi', 'p4ss', 'abcdefghijklmnop1234', 'letmein'])
      expect(text).not.toContain(secret);
    expect(value.data.kubeconfig).toContain('token: <redacted:credential-text:');
    expect(value.message).toContain('Bearer <redacted:authorization:');
  });

  it('keeps placeholders consistent across one incident and leaves ordinary text alone', () => {
    const redactor = new Redactor();
    const a = redactor.redact({ kind: 'Secret', data: { x: 'same' } }, 'a') as { data: { x: string } };
    const b = redactor.redact({ kind: 'Secret', data: { y: 'same' } }, 'b') as { data: { y: string } };
    expect(a.data.x).toBe(b.data.y);
    const plain =
      'ClusterVersion.config.openshift.io "version" is invalid: status.capabilities.enabledCapabilities[3]: Unsupported value: "MachineAPI"';
    expect(redactor.redact(plain, 'c')).toBe(plain);
  });
});
