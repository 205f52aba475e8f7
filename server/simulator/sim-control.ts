import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClockDriver } from './clock';
import type { SimulatedCluster } from './core';
import { badRequest, failure } from './errors';
import { parseDuration, readBody, sendJson } from './http-util';
import type { RequestStats } from './request-stats';
import { ApiStatusError, type FaultRule } from './types';
import { RESOURCE_NAMES } from '@/lib/k8s/resources';

const FAULT_KINDS: FaultRule['kind'][] = ['drop', 'silence', 'hang', 'status', 'reset', 'close', 'slow', 'expire'];
const FAULT_VERBS = ['get', 'list', 'watch', 'any'];

/** Validates a FaultRule from JSON (400 with a clear message otherwise). */
export function parseFaultRule(body: unknown): FaultRule {
  if (typeof body !== 'object' || body === null) throw badRequest('fault rule must be a JSON object');
  const rule = body as FaultRule;
  if (!FAULT_KINDS.includes(rule.kind)) throw badRequest(`fault kind must be one of ${FAULT_KINDS.join(', ')}`);
  if (rule.resource !== undefined && !(RESOURCE_NAMES as string[]).includes(rule.resource))
    throw badRequest(`unknown resource "${rule.resource}"`);
  if (rule.verb !== undefined && !FAULT_VERBS.includes(rule.verb))
    throw badRequest(`fault verb must be one of ${FAULT_VERBS.join(', ')}`);
  if (rule.kind === 'status' && !(Number.isInteger(rule.status) && (rule.status as number) >= 400)) {
    throw badRequest('a status fault needs an HTTP error "status" (e.g. 429, 500)');
  }
  return rule;
}

/** Serves the admin-only `/__sim/*` control surface: faults, compaction, stats, clock. */
export async function handleSimControl(
  action: string,
  req: IncomingMessage,
  res: ServerResponse,
  context: { cluster: SimulatedCluster; stats: RequestStats; driver?: ClockDriver; query: URLSearchParams },
): Promise<void> {
  const { cluster, stats, driver, query } = context;
  const method = req.method ?? 'GET';
  const route = `${method} ${action}`;
  switch (route) {
    case 'POST faults': {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        throw badRequest('fault rule must be JSON');
      }
      return sendJson(res, 201, { id: cluster.faults.add(parseFaultRule(body)) });
    }
    case 'GET faults':
      return sendJson(res, 200, { faults: cluster.faults.list() });
    case 'DELETE faults':
      cluster.faults.clear(query.get('id') ?? undefined);
      return sendJson(res, 200, { cleared: true });
    case 'POST compact':
      cluster.store.compact();
      return sendJson(res, 200, { compactedAt: String(cluster.store.currentRv()) });
    case 'GET stats':
      return sendJson(res, 200, stats.snapshot());
    case 'POST advance': {
      const by = parseDuration(query.get('by'));
      if (by === undefined) throw badRequest('advance needs ?by=<duration>, e.g. 90s, 30m, 1h, 250ms');
      cluster.clock.advance(by);
      return sendJson(res, 200, { now: new Date(cluster.clock.now()).toISOString() });
    }
    case 'POST pause':
      driver?.pause();
      return sendJson(res, 200, { paused: true, now: new Date(cluster.clock.now()).toISOString() });
    case 'POST resume':
      driver?.resume();
      return sendJson(res, 200, { paused: false, now: new Date(cluster.clock.now()).toISOString() });
    case 'GET clock':
      return sendJson(res, 200, {
        now: new Date(cluster.clock.now()).toISOString(),
        paused: driver?.isPaused() ?? true,
      });
    default:
      throw new ApiStatusError(failure(404, 'NotFound', 'the server could not find the requested resource', {}));
  }
}
