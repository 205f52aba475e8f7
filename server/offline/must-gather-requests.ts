import 'server-only';
import type { CreatedIncidentDto } from '@/lib/api/incident-dto';
import { MUST_GATHER_ADMIN_PATH, mustGatherClusterId, type MustGatherResultDto } from '@/lib/api/must-gather-dto';
import { getAuthService } from '@/server/auth/auth-service';
import { viewerName, type Viewer } from '@/server/auth/identity';
import { mustGatherRoot } from '@/server/env';
import { createIncident } from '@/server/incidents/incident-service';
import { getIncidentRepository } from '@/server/incidents/incident-store';
import { analysisAdmission, type AnalysisAdmission } from './analysis-admission';
import type { RunAnalysisOptions } from './analysis-runner';
import { analyzeServerPath, analyzeUpload, resolveUnderRoot } from './must-gather-service';
import { mustGatherResults, type ResultStore } from './result-store';

/** What an unknown id, and a result the viewer may not read, both answer. */
export const MUST_GATHER_NOT_FOUND = 'no such must-gather analysis (results are kept in memory and expire)';

/** Why a must-gather request is turned away before any work: not allowed (403), or not now (429). */
export class MustGatherRefusal extends Error {
  override readonly name = 'MustGatherRefusal';

  constructor(
    message: string,
    readonly code: 'forbidden' | 'too_many_requests',
    readonly retryAfterSeconds = 0,
  ) {
    super(message);
  }
}

/** What the requests work with; tests pass their own store, root, admission and worker size. */
export interface MustGatherDeps {
  store: ResultStore;
  root: () => string;
  admission: AnalysisAdmission;
  mayAdminister: (viewer: Viewer) => Promise<boolean>;
  worker?: RunAnalysisOptions;
}

function defaultDeps(): MustGatherDeps {
  return {
    store: mustGatherResults(),
    root: mustGatherRoot,
    admission: analysisAdmission(),
    mayAdminister: (viewer) => getAuthService().mayGetPath(viewer, MUST_GATHER_ADMIN_PATH),
  };
}

/** Whether the viewer may open server paths and read everyone's results (the local operator always may). */
export function mayAdministerMustGathers(viewer: Viewer, deps: MustGatherDeps = defaultDeps()): Promise<boolean> {
  return viewer.kind === 'local' ? Promise.resolve(true) : deps.mayAdminister(viewer);
}

/** The admission key of a viewer, and whether its start rate is limited (not the local operator's own machine). */
function admissionOf(viewer: Viewer): [key: string, limitStarts: boolean] {
  const name = viewerName(viewer);
  return name === null ? ['local', false] : [`user:${name}`, true];
}

/**
 * Why an analysis of the viewer's would be refused now (429), or undefined; takes no slot. The upload guard asks before
 * an archive's body is read; the analysis itself is admitted when it starts.
 */
export function analysisRefusalFor(viewer: Viewer, deps: Pick<MustGatherDeps, 'admission'> = defaultDeps()) {
  const refused = deps.admission.check(...admissionOf(viewer));
  return refused && new MustGatherRefusal(refused.message, 'too_many_requests', refused.retryAfterSeconds);
}

async function admitted<T>(viewer: Viewer, deps: MustGatherDeps, work: () => Promise<T>): Promise<T> {
  const slot = deps.admission.enter(...admissionOf(viewer));
  if (!slot.ok) throw new MustGatherRefusal(slot.message, 'too_many_requests', slot.retryAfterSeconds);
  try {
    return await work();
  } finally {
    slot.release();
  }
}

/**
 * Analyzes a path in the server's must-gather directory, for must-gather administrators only: anyone else is
 * refused before the file system is looked at, so existing and missing paths answer alike.
 */
export async function analyzePathFor(
  viewer: Viewer,
  input: string,
  deps: MustGatherDeps = defaultDeps(),
): Promise<MustGatherResultDto> {
  if (!(await mayAdministerMustGathers(viewer, deps))) {
    const message = `opening paths on the server needs permission to get ${MUST_GATHER_ADMIN_PATH}`;
    throw new MustGatherRefusal(`${message}; upload the archive instead`, 'forbidden');
  }
  // A path that is refused or missing costs no analysis slot.
  await resolveUnderRoot(deps.root(), input);
  const options = { createdBy: viewerName(viewer), worker: deps.worker };
  return admitted(viewer, deps, () => analyzeServerPath(deps.store, deps.root(), input, options));
}

/** Analyzes an uploaded archive (one analysis per user at a time, a bounded number at once) owned by the viewer. */
export function analyzeUploadFor(
  viewer: Viewer,
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  label: string,
  deps: MustGatherDeps = defaultDeps(),
): Promise<MustGatherResultDto> {
  const options = { createdBy: viewerName(viewer), worker: deps.worker };
  return admitted(viewer, deps, () => analyzeUpload(deps.store, body, label, options));
}

/** A stored result as the viewer may read it: their own, or any for an administrator; else undefined (a 404). */
export async function resultFor(
  viewer: Viewer,
  id: string,
  deps: MustGatherDeps = defaultDeps(),
): Promise<MustGatherResultDto | undefined> {
  const result = deps.store.get(id);
  if (!result) return undefined;
  if (result.createdBy !== null && result.createdBy === viewerName(viewer)) return result;
  return (await mayAdministerMustGathers(viewer, deps)) ? result : undefined;
}

/**
 * Freezes a result the viewer may read into a durable incident, created by the viewer, under the result's own
 * `must-gather:` cluster id (never a fleet member's, whatever the archive calls its cluster).
 */
export async function mustGatherIncidentFor(
  viewer: Viewer,
  id: string,
  deps: MustGatherDeps = defaultDeps(),
): Promise<CreatedIncidentDto | undefined> {
  const result = await resultFor(viewer, id, deps);
  const snapshot = result && deps.store.snapshot(id);
  if (!result || !snapshot) return undefined;
  const source = {
    id: mustGatherClusterId(result.id),
    name: `${result.health.cluster.name} (must-gather ${result.label})`,
    health: () => result.health,
    series: () => result.series,
    snapshot: () => snapshot,
  };
  return createIncident(source, getIncidentRepository(), { createdBy: viewerName(viewer) });
}
