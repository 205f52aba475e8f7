'use client';
import { useMemo } from 'react';
import type { MustGatherResultDto } from '@/lib/api/must-gather-dto';
import { ClusterView, type StaticClusterData } from '@/components/cluster/ClusterView';
import { MustGatherIncidentButton } from './MustGatherIncidentButton';
import styles from './must-gather.module.css';

/**
 * A stored must-gather analysis in the normal cluster view, read-only: no stream, ages relative to the
 * must-gather's own time; "Create incident" freezes it durably.
 */
export function MustGatherResultView({ result }: { result: MustGatherResultDto }) {
  const data = useMemo<StaticClusterData>(
    () => ({
      health: result.health,
      series: result.series,
      source: (
        <span
          className={styles.source}
          data-testid="data-source"
          data-source="must-gather"
          title={
            result.warnings.length
              ? `${result.warnings.length} file(s) skipped: ${result.warnings.slice(0, 5).join('; ')}`
              : undefined
          }
        >
          <strong>must-gather</strong> {result.label} · as of{' '}
          <time dateTime={result.clusterTime}>{result.clusterTime.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z')}</time>
          {result.createdBy ? (
            <>
              {' '}
              · {result.source === 'upload' ? 'uploaded' : 'opened'} by {result.createdBy}
            </>
          ) : null}
        </span>
      ),
      actions: <MustGatherIncidentButton resultId={result.id} />,
    }),
    [result],
  );
  return <ClusterView id={`must-gather-${result.id}`} data={data} />;
}
