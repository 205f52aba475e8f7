/**
 * The serving certificate and key a listener reads from files (OpenShift's service CA writes them into a Secret and
 * rewrites it in place on renewal), checked to form a usable pair before they are served.
 */
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';

/** The certificate or key cannot be read, or they do not form a usable pair. */
export class TlsFilesError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TlsFilesError';
  }
}

/** A PEM certificate (chain) and its key. */
export interface KeyPair {
  cert: string;
  key: string;
}

/** Reads a PEM file; throws TlsFilesError naming the file and what it should hold. */
export function readPemFile(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new TlsFilesError(`cannot read the TLS ${what} ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** Reads and checks the pair; throws TlsFilesError naming the file or the mismatch. */
export function readKeyPair(certFile: string, keyFile: string): KeyPair {
  const pair = { cert: readPemFile(certFile, 'certificate'), key: readPemFile(keyFile, 'key') };
  try {
    createSecureContext(pair);
  } catch (error) {
    const reason = (error as Error).message;
    const message = `the TLS certificate ${certFile} and key ${keyFile} are not a usable pair: ${reason}`;
    throw new TlsFilesError(message, { cause: error });
  }
  return pair;
}
