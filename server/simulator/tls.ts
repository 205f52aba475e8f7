import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A PEM certificate and key for the simulated API servers. */
export interface ServingCertificate {
  cert: string;
  key: string;
  /** base64 of the PEM certificate, for kubeconfig `certificate-authority-data`. */
  caData: string;
}

/** Thrown when no serving certificate can be produced. */
export class CertificateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CertificateError';
  }
}

let cached: ServingCertificate | undefined;

/**
 * A self-signed certificate with SANs IP:127.0.0.1 and DNS:localhost (kubectl rejects CN-only certificates),
 * generated once per process with openssl and reused by every simulated cluster.
 */
export function servingCertificate(): ServingCertificate {
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'sim-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'server.key'),
        '-out',
        join(dir, 'server.crt'),
        '-days',
        '3650',
        '-subj',
        '/CN=update-health-simulator',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'pipe' },
    );
    const cert = readFileSync(join(dir, 'server.crt'), 'utf8');
    const key = readFileSync(join(dir, 'server.key'), 'utf8');
    cached = { cert, key, caData: Buffer.from(cert).toString('base64') };
    return cached;
  } catch (error) {
    throw new CertificateError(
      `cannot create the simulator's TLS certificate with openssl: ${(error as Error).message}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
