/**
 * Child process for the crash test: writes incidents to the SQLite file given as argv[2] as fast as it can and prints
 * `ack <id>` on stdout once each `create` has resolved (the moment a link would be handed out). Never exits by itself.
 */
import { SqliteIncidentRepository } from '../incidents/sqlite-incident-repository';
import { createIncident } from '../incidents/incident-service';
import { scenarioSource } from './incident-source';

const repository = new SqliteIncidentRepository(process.argv[2]);
const source = scenarioSource('cross-minor-rollback', 15 * 60_000);

async function main(): Promise<void> {
  process.stdout.write('ready\n');
  for (;;) {
    const { id } = await createIncident(source, repository, { limits: null });
    process.stdout.write(`ack ${id}\n`);
  }
}

void main();
