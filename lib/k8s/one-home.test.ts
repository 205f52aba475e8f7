/**
 * One home for each piece of Kubernetes knowledge: a second version comparator, condition reader, object reference,
 * release-history reader or severity order anywhere in the source tree fails this test, so copies that drift (two
 * comparators that ordered prereleases differently) cannot come back unnoticed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Each helper, and the one module allowed to define it. */
const HOMES: Record<string, string> = {
  compareVersions: 'lib/k8s/version.ts',
  parseVersion: 'lib/k8s/version.ts',
  conditionsOf: 'lib/k8s/conditions.ts',
  conditionOf: 'lib/k8s/conditions.ts',
  findCondition: 'lib/k8s/conditions.ts',
  refOf: 'lib/k8s/refs.ts',
  matchesSelector: 'lib/k8s/selectors.ts',
  selectorMatches: 'lib/k8s/selectors.ts',
  historyOf: 'lib/k8s/cluster-version.ts',
  versionOfReleaseImage: 'lib/k8s/cluster-version.ts',
  SEVERITY_ORDER: 'lib/health/severity.ts',
  SEVERITY_RANK: 'lib/health/severity.ts',
  severityRank: 'lib/health/severity.ts',
  compareSeverity: 'lib/health/severity.ts',
  worstSeverity: 'lib/health/severity.ts',
  summaryOf: 'lib/cluster/cluster-summary.ts',
};

const DEFINITION = new RegExp(
  String.raw`(?:\bfunction\s+|\b(?:const|let|var)\s+)(${Object.keys(HOMES).join('|')})\b(?![\w$])`,
  'g',
);
/** The four severities written out as a list, in any order: the order belongs to lib/health/severity.ts. */
const SEVERITY_LIST =
  /\[\s*'(critical|warning|info|ok)',\s*'(critical|warning|info|ok)',\s*'(critical|warning|info|ok)',\s*'(critical|warning|info|ok)'\s*\]/g;

const ROOTS = ['lib', 'server', 'components', 'app'];
const SKIP = new Set(['node_modules', '.next', 'fixtures']);

interface SourceFile {
  path: string;
  text: string;
}

/** Every definition of a homed helper outside its home, and every written-out severity order, as `path: name`. */
export function strayCopies(files: readonly SourceFile[]): string[] {
  const out: string[] = [];
  for (const { path, text } of files) {
    for (const match of text.matchAll(DEFINITION)) if (HOMES[match[1]] !== path) out.push(`${path}: ${match[1]}`);
    if (path === HOMES.SEVERITY_ORDER || path.endsWith('.test.ts') || path.endsWith('.test.tsx')) continue;
    for (const match of text.matchAll(SEVERITY_LIST))
      if (new Set(match.slice(1)).size === 4) out.push(`${path}: severity order`);
  }
  return out;
}

function sourceFiles(dir: string, root: string): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full, root);
    if (!/\.(ts|tsx|mts)$/.test(entry.name) || full.endsWith('one-home.test.ts')) return [];
    return [{ path: relative(root, full), text: readFileSync(full, 'utf8') }];
  });
}

describe('one home for Kubernetes knowledge', () => {
  it('finds a planted second comparator, condition reader, history reader and severity order', () => {
    const planted: SourceFile[] = [
      { path: 'lib/charts/compare-versions.ts', text: 'export function compareVersions(a: string, b: string) {}' },
      { path: 'lib/cluster/condition-transitions.ts', text: 'const conditionsOf = (o: unknown) => [];' },
      { path: 'lib/health/hosted-update-progress.ts', text: 'function historyOf(hc: KubeObject) {}' },
      { path: 'lib/view/severity.ts', text: "export const RANK = ['critical', 'warning', 'info', 'ok'];" },
      { path: 'lib/k8s/version.ts', text: 'export function compareVersions(a: string, b: string) {}' },
      { path: 'lib/k8s/conditions.ts', text: 'const conditionsOfAll = 1; // a longer name is another helper' },
    ];
    expect(strayCopies(planted)).toEqual([
      'lib/charts/compare-versions.ts: compareVersions',
      'lib/cluster/condition-transitions.ts: conditionsOf',
      'lib/health/hosted-update-progress.ts: historyOf',
      'lib/view/severity.ts: severity order',
    ]);
  });

  it('has no copy anywhere in the source tree', () => {
    const root = process.cwd();
    const files = ROOTS.flatMap((dir) => sourceFiles(join(root, dir), root));
    expect(files.length).toBeGreaterThan(100);
    expect(strayCopies(files)).toEqual([]);
  });
});
