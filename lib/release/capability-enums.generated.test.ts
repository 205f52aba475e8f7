import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateReleaseData, OUTPUT_PATH } from '@/server/cli/generate-release-data';
import { CAPABILITY_ENUMS, RELEASE_KEYS } from '@/lib/release/capability-enums.generated';

const root = join(import.meta.dirname, '../..');

interface DerivedRelease {
  branch: string;
  commit: string;
  path: string;
  'spec.capabilities.baselineCapabilitySet': string[];
  'spec.capabilities.additionalEnabledCapabilities[]': string[];
  'status.capabilities.enabledCapabilities[]': string[];
  'status.capabilities.knownCapabilities[]': string[];
}

describe('capability-enums.generated.ts', () => {
  it('is exactly what the generator writes from the fixtures (regenerate with npm run generate:release-data)', () => {
    const committed = readFileSync(join(root, OUTPUT_PATH), 'utf8');
    expect(generateReleaseData(root)).toBe(committed);
  });

  it('covers 4.11 … 4.21 and master', () => {
    expect(RELEASE_KEYS).toStrictEqual([
      '4.11',
      '4.12',
      '4.13',
      '4.14',
      '4.15',
      '4.16',
      '4.17',
      '4.18',
      '4.19',
      '4.20',
      '4.21',
      'master',
    ]);
  });

  it('matches the independently derived table in capability-enums.json', () => {
    const json = JSON.parse(
      readFileSync(join(root, 'server/fixtures/openshift-api/capability-enums.json'), 'utf8'),
    ) as {
      releases: Record<string, DerivedRelease>;
    };
    expect(Object.keys(json.releases).sort()).toStrictEqual([...RELEASE_KEYS].sort());
    for (const key of RELEASE_KEYS) {
      const derived = json.releases[key];
      const entry = CAPABILITY_ENUMS[key];
      expect({ key, branch: entry.branch, commit: entry.commit, path: entry.path }).toStrictEqual({
        key,
        branch: derived.branch,
        commit: derived.commit,
        path: derived.path,
      });
      expect({
        key,
        enums: [
          entry.enabledCapabilities,
          entry.knownCapabilities,
          entry.additionalEnabledCapabilities,
          entry.baselineCapabilitySet,
        ],
      }).toStrictEqual({
        key,
        enums: [
          derived['status.capabilities.enabledCapabilities[]'],
          derived['status.capabilities.knownCapabilities[]'],
          derived['spec.capabilities.additionalEnabledCapabilities[]'],
          derived['spec.capabilities.baselineCapabilitySet'],
        ],
      });
    }
  });
});
