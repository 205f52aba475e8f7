'use client';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { rollbackPlanSchema, type RollbackPlanDto } from '@/lib/api/rollback-dto';
import { clusterQueries } from '@/lib/queries/cluster-queries';
import { rollbackQueries } from '@/lib/queries/rollback-queries';
import { useLiveStream } from '@/components/live/use-live-stream';
import { StreamStatusBadge } from '@/components/live/StreamStatusBadge';
import { AppHeader } from '@/components/shell/AppHeader';
import { ClusterLoadError } from '@/components/cluster/ClusterLoadError';
import { RollbackChecks } from './RollbackChecks';
import { RollbackCommands } from './RollbackCommands';
import { RollbackTracker } from './RollbackTracker';
import { useRollbackUrlState } from './use-rollback-url-state';
import styles from './rollback.module.css';

const storageKey = (id: string): string => `update-health:rollback-start:${id}`;

/** "Rollback to 4.13.40", "Roll-forward to 4.14.27": what the plan does, in the words the checks use. */
function verdictNoun(plan: RollbackPlanDto): string {
  if (plan.direction === 'roll-forward') return `Roll-forward to ${plan.target.version}`;
  if (plan.direction === 'current') return `${plan.target.version} (already the desired version)`;
  return `Rollback to ${plan.target.version}`;
}

/** Reads the plan saved when tracking started (a reload keeps the tracker's baseline). */
function storedPlan(id: string): RollbackPlanDto | null {
  try {
    const parsed = rollbackPlanSchema.safeParse(JSON.parse(window.sessionStorage.getItem(storageKey(id)) ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** `/clusters/<id>/rollback`: choose a target, read the live pre-flight checks, copy the commands, track the rollback. */
export function RollbackGuide({ id }: { id: string }) {
  const health = useQuery(clusterQueries.health(id));
  const stream = useLiveStream(health.isSuccess ? [id] : []);
  const [url, setUrl] = useRollbackUrlState();
  const desired = health.data?.cluster.desiredVersion ?? null;
  const candidates = (health.data?.cluster.history ?? [])
    .map((h) => h.version)
    .filter((v, i, all) => v !== desired && all.indexOf(v) === i);
  const to = url.to ?? candidates[0] ?? null;
  const plan = useQuery({
    ...rollbackQueries.plan(id, to ?? '', url.accept),
    enabled: to !== null && health.isSuccess,
  });
  const [whatIf, setWhatIf] = useState('');
  const [started, setPlanAtStart] = useState<RollbackPlanDto | null>(null);
  // After a reload the baseline comes from session storage (health only loads in the browser, so no hydration gap).
  const restored = useMemo(
    () => (url.tracking && health.isSuccess ? storedPlan(id) : null),
    [url.tracking, health.isSuccess, id],
  );
  const planAtStart = started ?? restored ?? (url.tracking ? (plan.data ?? null) : null);

  const startTracking = (): void => {
    if (!plan.data) return;
    window.sessionStorage.setItem(storageKey(id), JSON.stringify(plan.data));
    setPlanAtStart(plan.data);
    setUrl({ tracking: true });
  };
  const stopTracking = (): void => {
    window.sessionStorage.removeItem(storageKey(id));
    setPlanAtStart(null);
    setUrl({ tracking: false });
  };
  const submitWhatIf = (event: FormEvent): void => {
    event.preventDefault();
    if (whatIf.trim()) setUrl({ to: whatIf.trim() });
  };

  if (health.isError) {
    return (
      <>
        <AppHeader>
          <StreamStatusBadge status={stream} />
        </AppHeader>
        <main id="main" className={styles.main}>
          <ClusterLoadError id={id} error={health.error} onRetry={() => void health.refetch()} />
        </main>
      </>
    );
  }

  return (
    <>
      <AppHeader>
        <StreamStatusBadge status={stream} />
      </AppHeader>
      <main id="main" className={styles.main}>
        <p>
          <Link href={`/clusters/${encodeURIComponent(id)}`}>← {id}</Link>
        </p>
        <h1>Rollback guide: {id}</h1>
        {health.isPending ? <p role="status">Loading cluster {id}…</p> : null}
        {health.data ? (
          <p data-testid="rollback-current">
            Current version <strong>{health.data.cluster.version ?? 'unknown'}</strong>, desired{' '}
            <strong>{desired ?? 'unknown'}</strong>.
          </p>
        ) : null}

        <section className={styles.section} aria-labelledby="target-title">
          <h2 id="target-title">Target</h2>
          <fieldset className={styles.targets}>
            <legend>Versions from the ClusterVersion history</legend>
            {candidates.length === 0 ? (
              <span className="muted">No earlier version in the history.</span>
            ) : (
              candidates.map((version) => (
                <label key={version}>
                  <input
                    type="radio"
                    name="target"
                    value={version}
                    checked={to === version}
                    onChange={() => setUrl({ to: version })}
                  />{' '}
                  {version}
                </label>
              ))
            )}
          </fieldset>
          <form className={styles.whatIf} onSubmit={submitWhatIf}>
            <label htmlFor="what-if">Any release version (what-if)</label>
            <input id="what-if" value={whatIf} onChange={(e) => setWhatIf(e.target.value)} placeholder="4.16.3" />
            <button type="submit" className="btn">
              Plan
            </button>
          </form>
          <p>
            <label>
              <input
                type="checkbox"
                checked={url.accept}
                onChange={(e) => setUrl({ accept: e.target.checked })}
                data-testid="accept-risk"
              />{' '}
              I accept the risk of a cross-minor rollback the CVO does not support (adds <code>--force</code>)
            </label>
          </p>
        </section>

        {to && plan.isError ? (
          <p role="alert">
            Cannot plan a rollback to {to}: {plan.error.message}
          </p>
        ) : null}
        {to && plan.isPending && health.isSuccess ? <p role="status">Planning the rollback to {to}…</p> : null}
        {plan.data ? (
          <>
            <div
              className={styles.verdict}
              data-allowed={plan.data.allowed}
              data-testid="rollback-verdict"
              role="status"
            >
              <strong>{`${verdictNoun(plan.data)} ${plan.data.allowed ? 'can proceed' : 'is blocked'}`}</strong>
              {' · '}
              {plan.data.checks.filter((c) => c.status === 'block').length} blocking,{' '}
              {plan.data.checks.filter((c) => c.status === 'warn').length} warning
              {plan.data.target.inHistory ? '' : ' · not in the history (what-if)'}
              {plan.data.direction === 'roll-forward' ? (
                <p data-testid="roll-forward-note">
                  {plan.data.target.version} is newer than the desired version {plan.data.current.desiredVersion}: this
                  is a roll-forward (an update), not a rollback, and it is checked as one.
                </p>
              ) : null}
            </div>
            <section className={styles.section} aria-labelledby="checks-title">
              <h2 id="checks-title">Pre-flight checks</h2>
              <RollbackChecks checks={plan.data.checks} />
            </section>
            <section className={styles.section} aria-labelledby="commands-title">
              <h2 id="commands-title">Commands</h2>
              <RollbackCommands
                commands={plan.data.commands}
                notes={plan.data.notes}
                risks={plan.data.checks.filter((c) => c.status === 'block').map((c) => c.title)}
              />
            </section>
          </>
        ) : null}

        <section className={styles.section} aria-labelledby="tracker-title">
          <h2 id="tracker-title">Tracker</h2>
          {planAtStart && health.data ? (
            <>
              <p className="muted">
                Tracking the rollback to {planAtStart.target.version} since the plan of{' '}
                {new Date(planAtStart.computedAt).toISOString()} (cluster time).
              </p>
              <RollbackTracker planAtStart={planAtStart} health={health.data} />
              <button type="button" className="btn" onClick={stopTracking} data-testid="stop-tracking">
                Stop tracking
              </button>
            </>
          ) : (
            <>
              <p>Start tracking right before you run the command; each step turns green as the cluster moves.</p>
              <button
                type="button"
                className="btn"
                onClick={startTracking}
                disabled={!plan.data}
                data-testid="start-tracking"
              >
                Start tracking
              </button>
            </>
          )}
        </section>
      </main>
    </>
  );
}
