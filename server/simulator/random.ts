/** A seeded pseudo-random generator (mulberry32): deterministic numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A UUID-shaped string (version 4 layout) drawn from `random`. */
export function randomUuid(random: () => number): string {
  const hex = (digits: number) => {
    let out = '';
    for (let i = 0; i < digits; i++) out += Math.floor(random() * 16).toString(16);
    return out;
  };
  const variant = (8 + Math.floor(random() * 4)).toString(16);
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
}

/** A lowercase alphanumeric suffix like the API server's generateName (`abc12`). */
export function randomSuffix(random: () => number, length = 5): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function rfc3339(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
