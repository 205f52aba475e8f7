import { createHash } from 'node:crypto';

const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** A lowercase alphanumeric suffix like the API server's generateName (`x2kqm`). */
export function podSuffix(random: () => number, length = 5): string {
  let out = '';
  for (let i = 0; i < length; i++) out += SUFFIX_ALPHABET[Math.floor(random() * SUFFIX_ALPHABET.length)];
  return out;
}

/** A ReplicaSet pod-template-hash (10 characters of the same alphabet, as the deployment controller emits). */
export function templateHash(random: () => number): string {
  return podSuffix(random, 10);
}

/** A UUID-shaped string (version 4 layout) drawn from `random`. */
export function uuid(random: () => number): string {
  const hex = (digits: number) => {
    let out = '';
    for (let i = 0; i < digits; i++) out += Math.floor(random() * 16).toString(16);
    return out;
  };
  const variant = (8 + Math.floor(random() * 4)).toString(16);
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
}

/** A stable sha256 hex digest of `seed` (image digests that look real and never change between runs). */
export function digestOf(seed: string): string {
  return createHash('sha256').update(seed).digest('hex');
}

/** A short stable hex hash of `seed` (rendered MachineConfig names, commit ids). */
export function shortHash(seed: string, length = 32): string {
  return digestOf(seed).slice(0, length);
}
