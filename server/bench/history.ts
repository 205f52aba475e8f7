/**
 * `npm run bench -- history [--seconds N] [--speed X]`: what the finding history costs on a real run. The embedded
 * fleet (every story) is watched by real engines recording into SQLite and PostgreSQL at once; afterwards it prints
 * the events stored and the bytes per event: SQLite from its pages (dbstat: the history tables and their indexes),
 * PostgreSQL from `pg_total_relation_size` of the same tables.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import type { FindingEvent, FindingState } from '@/lib/history/finding-lifecycle';
import { ClusterEngine } from '@/server/engine/cluster-engine';
import type { FindingHistoryRepository } from '@/server/history/finding-history-repository';
import { PostgresFindingHistory } from '@/server/history/postgres-finding-history';
import { SqliteFindingHistory } from '@/server/history/sqlite-finding-history';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { startFleet } from '@/server/simulator/fleet';
import { SCENARIO_NAMES } from '@/server/simulator/types';
import { startPostgres } from '@/server/testing/postgres-server';

/** Writes every change to both databases (SQLite answers the reads: both hold the same rows). */
class BothDatabases implements FindingHistoryRepository {
  constructor(
    private readonly sqlite: SqliteFindingHistory,
    private readonly postgres: PostgresFindingHistory,
  ) {}
  state(clusterId: string, findingId: string) {
    return this.sqlite.state(clusterId, findingId);
  }
  async compareAndSet(next: FindingState, expected: number | undefined, event: FindingEvent) {
    const written = await this.sqlite.compareAndSet(next, expected, event);
    if (written) await this.postgres.compareAndSet(next, expected, event);
    return written;
  }
  openStates(clusterId: string) {
    return this.sqlite.openStates(clusterId);
  }
  events(clusterId: string, from: number, to: number) {
    return this.sqlite.events(clusterId, from, to);
  }
  deleteOlderThan(cutoff: string) {
    return this.sqlite.deleteOlderThan(cutoff);
  }
  async close() {}
}

/** Bytes of the history tables and their indexes in a SQLite file (dbstat: every page they use). */
function sqliteHistoryBytes(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db
        .prepare(
          `SELECT COALESCE(SUM(pgsize), 0) AS n FROM dbstat WHERE name LIKE 'finding_%'
           OR name LIKE 'sqlite_autoindex_finding_%'`,
        )
        .get() as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

/** Runs the benchmark and prints its figures. */
export async function runHistoryBench(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { seconds: { type: 'string' }, speed: { type: 'string' } },
    strict: true,
  });
  const seconds = Number(values.seconds ?? 120);
  const speed = Number(values.speed ?? 60);
  if (!(seconds > 0) || !(speed > 0)) throw new Error('--seconds and --speed must be positive numbers');
  const dir = mkdtempSync(join(tmpdir(), 'history-bench-'));
  const postgresServer = await startPostgres();
  const fleet = await startFleet({ scenarios: [...SCENARIO_NAMES], speed });
  const file = join(dir, 'incidents.sqlite');
  const sqlite = new SqliteFindingHistory(file);
  const postgres = new PostgresFindingHistory(postgresServer.url);
  try {
    const kubeconfig = join(dir, 'kubeconfig.yaml');
    writeFileSync(kubeconfig, fleet.kubeconfig('reader'), { mode: 0o600 });
    const history = new BothDatabases(sqlite, postgres);
    const engines = fleet.clusters.map(
      (running) =>
        new ClusterEngine({
          id: running.id,
          name: running.id,
          connection: createKubeConnection(kubeconfig, running.id),
          history,
        }),
    );
    for (const engine of engines) engine.start();
    console.log(
      `history bench: ${engines.length} clusters at ${speed}x for ${seconds} s (${(seconds * speed) / 60} story minutes)`,
    );
    await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
    for (const engine of engines) engine.stop();
    await Promise.all(engines.map((engine) => engine.historyIdle()));

    // Page granularity dominates a few hundred rows: copy the run's events 50 times (other cluster ids) into both
    // databases and measure the growth per added event as well.
    const sizes = async () => ({ sqlite: sqliteHistoryBytes(file), postgres: await postgres.storageBytes() });
    const before = await sizes();
    const copies = 50;
    const writer = new Database(file);
    const copyEvents = `INSERT INTO finding_events SELECT cluster_id || '-copy' || ?, finding_id, opened_at, kind, at,
      detector, subject, title, severity, digest, refs FROM finding_events WHERE cluster_id NOT LIKE '%-copy%'`;
    let added = 0;
    for (let copy = 0; copy < copies; copy += 1) {
      added += writer.prepare(copyEvents).run(String(copy)).changes;
      await postgres.copyEventsForMeasurement(`-copy${copy}`);
    }
    writer.close();
    const after = await sizes();
    const growth = {
      addedEvents: added,
      sqliteBytesPerEvent: Math.round((after.sqlite - before.sqlite) / added),
      postgresBytesPerEvent: Math.round((after.postgres - before.postgres) / added),
    };

    const db = new Database(file, { readonly: true });
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const run = "cluster_id NOT LIKE '%-copy%'";
    const events = count(`SELECT COUNT(*) AS n FROM finding_events WHERE ${run}`);
    const states = count('SELECT COUNT(*) AS n FROM finding_states');
    const byKind = db
      .prepare(`SELECT kind, COUNT(*) AS n FROM finding_events WHERE ${run} GROUP BY kind ORDER BY kind`)
      .all();
    const payload = count(`SELECT COALESCE(SUM(length(cluster_id) + length(finding_id) + length(kind) + length(detector)
      + length(subject) + length(title) + length(severity) + length(digest) + length(refs) + 16), 0) AS n FROM finding_events
      WHERE ${run}`);
    db.close();
    const per = (bytes: number) => (events ? Math.round(bytes / events) : 0);
    console.log(
      JSON.stringify(
        {
          clusters: engines.length,
          storyMinutes: (seconds * speed) / 60,
          events,
          states,
          byKind,
          rowPayloadBytesPerEvent: per(payload),
          run: {
            sqlite: { bytes: before.sqlite, bytesPerEvent: per(before.sqlite) },
            postgres: { bytes: before.postgres, bytesPerEvent: per(before.postgres) },
          },
          growth,
        },
        null,
        2,
      ),
    );
  } finally {
    await sqlite.close();
    await postgres.close();
    await fleet.close();
    postgresServer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
