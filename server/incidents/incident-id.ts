import 'server-only';
import { randomBytes } from 'node:crypto';

/** Incident ids: 128 random bits, base64url (22 characters), so links cannot be guessed or enumerated. */
export function newIncidentId(): string {
  return randomBytes(16).toString('base64url');
}

/** Whether a string has the shape of an incident id (checked before touching storage). */
export function isIncidentId(value: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(value);
}
