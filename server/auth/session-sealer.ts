import 'server-only';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { EnvError, type AuthEnv } from '@/server/env';

const VERSION = 'v1';

/**
 * Encrypts what a session keeps of its OAuth access token (AES-256-GCM, a fresh IV each time). The session's key is
 * the associated data: a sealed token copied into another session's row does not open there.
 */
export class SessionSealer {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new RangeError('a session key is 32 bytes');
  }

  seal(plaintext: string, associated: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associated));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, ...[iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url'))].join('.');
  }

  /** The plaintext, or undefined when the value was sealed under another key, for another session, or altered. */
  open(sealed: string, associated: string): string | undefined {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== VERSION || !iv || body === undefined || !tag) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(associated));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

/** Reads a key file: 32 bytes written as 64 hex digits or as base64 (`openssl rand -base64 32`). */
export function parseSessionKey(text: string, source: string): Buffer {
  const value = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(value) && !/^[A-Za-z0-9+/_-]{43}=?$/.test(value))) {
    throw new EnvError(
      `${source} must hold 32 random bytes as base64 or hex (create it with \`openssl rand -base64 32\`)`,
    );
  }
  return key;
}

/**
 * The sealer for this process: the key of UPDATE_HEALTH_SESSION_KEY_FILE, else (embedded fleet, `--dev`) a random
 * one with a warning, else an EnvError naming the setting.
 */
export function sessionSealer(env: AuthEnv, warn: (message: string) => void = console.warn): SessionSealer {
  const file = env.UPDATE_HEALTH_SESSION_KEY_FILE;
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new EnvError(`UPDATE_HEALTH_SESSION_KEY_FILE: cannot read ${file}: ${(error as Error).message}`);
    }
    return new SessionSealer(parseSessionKey(text, `UPDATE_HEALTH_SESSION_KEY_FILE (${file})`));
  }
  if (env.UPDATE_HEALTH_EMBEDDED === '1' || env.NODE_ENV === 'development') {
    warn(
      'Update Health: UPDATE_HEALTH_SESSION_KEY_FILE is not set; sessions are sealed with an ephemeral key ' +
        'and end when this process does (and are not readable by other replicas)',
    );
    return new SessionSealer(randomBytes(32));
  }
  throw new EnvError(
    'UPDATE_HEALTH_SESSION_KEY_FILE is required with --auth openshift: a file holding 32 random ' +
      'bytes (`openssl rand -base64 32`), the same for every replica, that encrypts the OAuth tokens kept in sessions',
  );
}
