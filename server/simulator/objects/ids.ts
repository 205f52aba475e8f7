import { createHash } from 'node:crypto';
import { randomSuffix } from '../random';

/** A ReplicaSet pod-template-hash (10 characters of the same alphabet, as the deployment controller emits). */
export function templateHash(random: () => number): string {
  return randomSuffix(random, 10);
}

/** A stable sha256 hex digest of `seed` (image digests that look real and never change between runs). */
export function digestOf(seed: string): string {
  return createHash('sha256').update(seed).digest('hex');
}

/** A short stable hex hash of `seed` (rendered MachineConfig names, commit ids). */
export function shortHash(seed: string, length = 32): string {
  return digestOf(seed).slice(0, length);
}
