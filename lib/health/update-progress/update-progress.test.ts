/**
 * Parity with `oc adm upgrade status` on every example of its own test suite (openshift/oc
 * `pkg/cli/admin/upgrade/status/examples/`, copied in server/fixtures/oc-upgrade/status/): our JSON must say what
 * oc's expected text output says.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeUpdateProgress } from '@/lib/health/update-progress/update-progress';
import {
  controlPlaneFields,
  nodeTable,
  parseOcStatus,
  poolRow,
  sinceText,
  updatingOperatorsTable,
} from '@/lib/health/update-progress/oc-status-text';
import { CASES, DIR, inputOf, mockNow } from '@/server/testing/oc-status-examples';

// ---- the parity table --------------------------------------------------------------------------------------------

describe('computeUpdateProgress parity with oc adm upgrade status examples', () => {
  it('finds the examples', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(8);
  });

  describe.each(CASES)('%s', (name) => {
    const input = inputOf(name);
    const now = mockNow(input);
    const progress = computeUpdateProgress(input, now);
    const expected = parseOcStatus(readFileSync(join(DIR, `${name}.output`), 'utf8'));
    const detailedPath = join(DIR, `${name}.detailed-output`);
    const detailed = existsSync(detailedPath) ? parseOcStatus(readFileSync(detailedPath, 'utf8')) : undefined;
    const poolNodes = (isDetailed: boolean) =>
      Object.fromEntries(
        progress.workerPools
          .filter((pool) => pool.nodes.length > 0)
          .map((pool) => [pool.name, nodeTable(pool.nodes, { detailed: isDetailed, controlPlane: false })]),
      );

    it('agrees on whether the cluster is updating', () => {
      expect(progress.updating).toBe(expected.updating);
    });

    if (!expected.updating) {
      it('not updating: control plane at its target version, no insights', () => {
        expect(progress.controlPlane.assessment).toBe('Completed');
        expect(progress.insights).toEqual([]);
      });
      return;
    }

    it('control plane: assessment, versions, completion, counts, duration, estimate, health, updating', () => {
      expect(controlPlaneFields(progress)).toEqual(expected.fields);
    });

    it('control-plane nodes: assessment, phase, version, estimate, message per row', () => {
      expect(nodeTable(progress.controlPlane.nodes, { detailed: false, controlPlane: true })).toEqual(expected.cpNodes);
    });

    it('worker pools: assessment, completion %, updated/total, status counts', () => {
      const shown = expected.pools.length ? progress.workerPools.map(poolRow) : [];
      expect(shown).toEqual(expected.pools);
    });

    it('worker pool nodes per row', () => {
      expect(poolNodes(false)).toEqual(expected.poolNodes);
    });

    it('insights: since, level, impact and message per row, in order', () => {
      const rows = progress.insights.map((insight) => ({
        SINCE: sinceText(insight.since, now),
        LEVEL: insight.level,
        IMPACT: insight.impact,
        MESSAGE: insight.message,
      }));
      expect(rows).toEqual(expected.health);
    });

    it.runIf(detailed !== undefined)(
      'detailed output: control plane, updating operators, all nodes, insight descriptions and references',
      () => {
        expect(controlPlaneFields(progress)).toEqual(detailed?.fields);
        expect(nodeTable(progress.controlPlane.nodes, { detailed: true, controlPlane: true })).toEqual(
          detailed?.cpNodes,
        );
        expect(poolNodes(true)).toEqual(detailed?.poolNodes);
        expect(updatingOperatorsTable(progress, now)).toEqual(detailed?.updatingOperators ?? []);
        if (detailed?.detailedHealth.length) {
          expect(
            progress.insights.map((insight) => ({
              message: insight.message,
              since: sinceText(insight.since, now),
              level: insight.level,
              impact: insight.impact,
              reference: insight.reference ?? '',
              description: insight.description,
            })),
          ).toEqual(detailed.detailedHealth);
        }
      },
    );
  });
});
