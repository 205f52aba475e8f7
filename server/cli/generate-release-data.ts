/**
 * `npm run generate:release-data`: parses the real ClusterVersion CRD of every release
 * (server/fixtures/openshift-api/crds/clusterversion/*.yaml) and writes lib/release/capability-enums.generated.ts.
 * Upstream branch/commit/path of each CRD come from server/fixtures/PROVENANCE.md.
 */
import './check-node';
import 'server-only';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { load } from 'js-yaml';
import { renderCapabilityEnumsModule, type ReleaseCrdSource } from '@/lib/release/render-release-data';

/** Folder of the per-release CRDs, relative to the repository root. */
export const CRD_DIR = 'server/fixtures/openshift-api/crds/clusterversion';
/** The generated module, relative to the repository root. */
export const OUTPUT_PATH = 'lib/release/capability-enums.generated.ts';

interface ProvenanceRow {
  branch: string;
  commit: string;
  upstreamPath: string;
}

function provenanceRows(repoRoot: string): Map<string, ProvenanceRow> {
  const text = readFileSync(join(repoRoot, 'server/fixtures/PROVENANCE.md'), 'utf8');
  const rows = new Map<string, ProvenanceRow>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    // | destination | repository | branch | commit | source path |
    if (cells.length < 7 || !cells[1].startsWith('openshift-api/crds/clusterversion/')) continue;
    rows.set(cells[1], { branch: cells[3], commit: cells[4], upstreamPath: cells[5] });
  }
  return rows;
}

/** Reads and parses every release CRD with its provenance. Throws when a CRD has no PROVENANCE.md row. */
export function loadReleaseCrdSources(repoRoot: string): ReleaseCrdSource[] {
  const rows = provenanceRows(repoRoot);
  const dir = join(repoRoot, CRD_DIR);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((file) => {
      const release = file.replace(/\.yaml$/, '');
      const row = rows.get(`openshift-api/crds/clusterversion/${file}`);
      if (!row) throw new Error(`PROVENANCE.md has no row for openshift-api/crds/clusterversion/${file}`);
      return {
        release,
        fixturePath: `${CRD_DIR}/${file}`,
        branch: row.branch,
        commit: row.commit,
        upstreamPath: row.upstreamPath,
        crd: load(readFileSync(join(dir, file), 'utf8')),
      };
    });
}

/** The text of the generated module for the fixtures under `repoRoot`. */
export function generateReleaseData(repoRoot: string): string {
  return renderCapabilityEnumsModule(loadReleaseCrdSources(repoRoot));
}

function main(): void {
  const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
  const out = join(repoRoot, OUTPUT_PATH);
  writeFileSync(out, generateReleaseData(repoRoot));
  console.log(`wrote ${OUTPUT_PATH}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
