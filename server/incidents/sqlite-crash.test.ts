import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { incidentSchema } from '@/lib/api/incident-dto';
import { SqliteIncidentRepository } from './sqlite-incident-repository';

const dir = mkdtempSync(join(tmpdir(), 'incidents-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ROOT = join(import.meta.dirname, '../..');
const ACKS_BEFORE_KILL = 150;

describe('SQLite incident store survives SIGKILL during a burst of writes', () => {
  it('opens intact with every acknowledged incident', async () => {
    const file = join(dir, 'incidents.sqlite');
    const child = spawn(
      process.execPath,
      ['--conditions=react-server', '--import', 'tsx', join(ROOT, 'server/testing/incident-writer.ts'), file],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const acked: string[] = [];
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`writer too slow (${acked.length} acks): ${stderr}`)), 50_000);
      createInterface({ input: child.stdout }).on('line', (line) => {
        const match = /^ack (\S+)$/.exec(line);
        if (!match) return;
        acked.push(match[1]);
        // Kill in the middle of the burst: the next write is already under way.
        if (acked.length === ACKS_BEFORE_KILL) {
          clearTimeout(timer);
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => reject(new Error(`writer exited early: ${stderr}`)));
    });
    expect(await exited).toBe('SIGKILL');

    const repository = new SqliteIncidentRepository(file);
    expect(repository.integrityCheck()).toStrictEqual(['ok']);
    for (const id of acked) {
      const incident = await repository.get(id);
      expect(incident, `acknowledged incident ${id}`).toBeDefined();
      expect(incidentSchema.safeParse(incident).success).toBe(true);
    }
    expect(repository.ids().length).toBeGreaterThanOrEqual(acked.length);
    await repository.close();
  }, 60_000);
});
