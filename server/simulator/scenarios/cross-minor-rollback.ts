import { ApiStatusError, type Scenario, type ScenarioContext } from '../types';
import { installBaseCluster } from '../controllers/base-cluster';
import { historyEntry } from '../objects/cluster-version';
import { releaseImage, stableChannel } from '../objects/releases';
import { HOUR, MINUTE, SECOND } from '../objects/time';
import { mutateObject } from '../objects/write';

/** Version the cluster starts at (and is rolled back to). */
export const ROLLBACK_FROM_VERSION = '4.13.40';
/** Version of the cross-minor update that completes. */
export const ROLLBACK_UPDATE_VERSION = '4.14.27';
/** When the admin requests the 4.13 → 4.14 update. */
export const ROLLBACK_UPDATE_REQUESTED_AT_MS = 1 * MINUTE;
/** By then the 4.14 update has completed (history Completed, MachineAPI/Build/DeploymentConfig/ImageRegistry enabled). */
export const ROLLBACK_UPDATE_COMPLETED_BY_MS = 10 * MINUTE;
/** When the admin forces the rollback to 4.13 (`oc adm upgrade --to-image=... --allow-explicit-upgrade --force`). */
export const ROLLBACK_REQUESTED_AT_MS = 13 * MINUTE;
/** By then the CVO has re-applied the 4.13 ClusterVersion CRD and every status write is rejected with 422. */
export const ROLLBACK_REJECTIONS_FROM_MS = 14 * MINUTE;
/**
 * When the admin tries to switch the channel back: the API server rejects that spec update too (the stored status no
 * longer validates against the 4.13 schema and a 1.26 API server validates the whole object on update).
 */
export const ROLLBACK_CHANNEL_CHANGED_AT_MS = 16 * MINUTE;
/** Window in which failure B is predictable but not yet happening (4.14 enabled capabilities, 4.14 CRD installed). */
export const ROLLBACK_BEFORE_WINDOW = {
  fromMs: ROLLBACK_UPDATE_COMPLETED_BY_MS,
  toMs: ROLLBACK_REQUESTED_AT_MS,
} as const;
/** Window in which failure B is observed (422s, frozen status, CVO log lines); it never ends on its own. */
export const ROLLBACK_AFTER_WINDOW = { fromMs: ROLLBACK_REJECTIONS_FROM_MS, toMs: Number.POSITIVE_INFINITY } as const;

/**
 * `cross-minor-rollback`: a 4.13 cluster updates to 4.14 (four capabilities become enabled), then is forced back to
 * 4.13. The CVO re-applies the 4.13 ClusterVersion CRD, whose status enum lacks those capabilities, and from then on
 * the API server rejects every status write of the CVO: ClusterVersion status freezes and the CVO logs each 422.
 */
export const crossMinorRollbackScenario: Scenario = {
  name: 'cross-minor-rollback',
  title: 'Cross-minor rollback 4.14 → 4.13 freezes ClusterVersion status',
  description:
    'A 4.13.40 → 4.14.27 update completes, then a forced rollback to 4.13.40 re-applies the 4.13 ClusterVersion CRD; ' +
    'every later CVO status write is rejected with 422 (status.capabilities enum).',
  failureAtMs: ROLLBACK_REJECTIONS_FROM_MS,
  start(context) {
    const start = context.clock.now();
    const base = installBaseCluster(context, {
      version: ROLLBACK_FROM_VERSION,
      history: [
        historyEntry(ROLLBACK_FROM_VERSION, start - 40 * 24 * HOUR, start - 40 * 24 * HOUR + 82 * MINUTE),
        historyEntry('4.12.56', start - 130 * 24 * HOUR, start - 130 * 24 * HOUR + 67 * MINUTE),
      ],
    });
    base.cvo.expectUpdate({ target: ROLLBACK_UPDATE_VERSION, stepMs: 15 * SECOND, crdRelease: '4.14' });
    base.cvo.expectUpdate({ target: ROLLBACK_FROM_VERSION, stepMs: 15 * SECOND, crdRelease: '4.13' });

    context.clock.setTimeout(
      () => requestUpdate(context, ROLLBACK_UPDATE_VERSION, false, stableChannel(ROLLBACK_UPDATE_VERSION)),
      ROLLBACK_UPDATE_REQUESTED_AT_MS,
    );
    context.clock.setTimeout(() => requestUpdate(context, ROLLBACK_FROM_VERSION, true), ROLLBACK_REQUESTED_AT_MS);
    context.clock.setTimeout(() => {
      try {
        mutateObject(context.as('oc'), 'clusterversions', 'version', undefined, (cv) => {
          (cv.spec as Record<string, unknown>).channel = stableChannel(ROLLBACK_FROM_VERSION);
          return cv;
        });
      } catch (error) {
        if (!(error instanceof ApiStatusError)) throw error;
      }
    }, ROLLBACK_CHANNEL_CHANGED_AT_MS);
  },
};

/** `oc adm upgrade` writing spec.desiredUpdate (and optionally the channel). */
function requestUpdate(context: ScenarioContext, version: string, force: boolean, channel?: string): void {
  mutateObject(context.as('oc'), 'clusterversions', 'version', undefined, (cv) => {
    const spec = cv.spec as Record<string, unknown>;
    spec.desiredUpdate = { force, image: releaseImage(version), version };
    if (channel) spec.channel = channel;
    return cv;
  });
}
