import type { PodProxy, ProxyResponse, ScenarioContext } from '../types';
import type { PromqlAnswer } from '../objects/update-graph';
import { AlertEvaluator, type ActiveAlert } from './alert-evaluator';

/** Namespace, service and port of the cluster's query endpoint (OAuth-proxied web port). */
export const MONITORING_NAMESPACE = 'openshift-monitoring';
export const THANOS_QUERIER = 'thanos-querier';
export const THANOS_QUERIER_PORT = 9091;

interface Matcher {
  name: string;
  op: '=' | '!=' | '=~' | '!~';
  value: string;
}

const json = (status: number, body: unknown): ProxyResponse => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(body),
});
const badData = (error: string) => json(400, { status: 'error', errorType: 'bad_data', error });

/** Parses `NAME{a="b", c!~"d"}`; `undefined` for anything else. */
export function parseSelector(query: string): { name: string; matchers: Matcher[] } | undefined {
  const match = /^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(?:\{(.*)\})?\s*$/s.exec(query);
  if (!match) return undefined;
  const matchers: Matcher[] = [];
  const body = match[2]?.trim() ?? '';
  const re = /\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"\s*(,|$)/gy;
  let consumed = 0;
  for (let m = re.exec(body); m && m[0] !== ''; m = re.exec(body)) {
    matchers.push({ name: m[1], op: m[2] as Matcher['op'], value: JSON.parse(`"${m[3]}"`) as string });
    consumed = re.lastIndex;
  }
  return consumed === body.length ? { name: match[1], matchers } : undefined;
}

function matches(labels: Record<string, string>, matchers: readonly Matcher[]): boolean {
  return matchers.every(({ name, op, value }) => {
    const actual = labels[name] ?? '';
    switch (op) {
      case '=':
        return actual === value;
      case '!=':
        return actual !== value;
      case '=~':
        return new RegExp(`^(?:${value})$`).test(actual);
      case '!~':
        return !new RegExp(`^(?:${value})$`).test(actual);
    }
  });
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The Prometheus HTTP API subset thanos-querier answers for alerts, over the simulated cluster's own evaluation:
 * `/api/v1/alerts` and `/api/v1/query` of `ALERTS` / `ALERTS_FOR_STATE` selectors (other PromQL is refused with
 * Prometheus' `bad_data` error). Answers use Prometheus' JSON shapes.
 */
export function thanosQuerierHandler(evaluator: AlertEvaluator, now: () => number) {
  return (pathAndQuery: string): ProxyResponse => {
    const url = new URL(pathAndQuery, 'https://thanos-querier');
    const alerts = evaluator.alerts();
    if (url.pathname === '/api/v1/alerts') {
      return json(200, {
        status: 'success',
        data: {
          alerts: alerts.map((a) => ({
            labels: a.labels,
            annotations: a.annotations,
            state: a.state,
            activeAt: iso(a.activeAt),
            value: '1e+00',
          })),
        },
      });
    }
    if (url.pathname === '/api/v1/query') {
      const query = url.searchParams.get('query');
      if (!query) return badData('invalid parameter "query": empty query');
      const selector = parseSelector(query);
      if (!selector || (selector.name !== 'ALERTS' && selector.name !== 'ALERTS_FOR_STATE')) {
        return badData('this endpoint only evaluates ALERTS and ALERTS_FOR_STATE selectors');
      }
      const time = Number(url.searchParams.get('time') ?? now() / 1000);
      const result = alerts.flatMap((a: ActiveAlert) => {
        if (selector.name === 'ALERTS') {
          const metric = { __name__: 'ALERTS', ...a.labels, alertstate: a.state };
          return matches(metric, selector.matchers) ? [{ metric, value: [time, '1'] }] : [];
        }
        const metric = { __name__: 'ALERTS_FOR_STATE', ...a.labels };
        return evaluator.forOf(a.labels.alertname) > 0 && matches(metric, selector.matchers)
          ? [{ metric, value: [time, String(a.activeAt / 1000)] }]
          : [];
      });
      return json(200, { status: 'success', data: { resultType: 'vector', result } });
    }
    return { status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' };
  };
}

/**
 * Cluster monitoring for a scenario: the `thanos-querier` Service in openshift-monitoring (when the scenario has
 * that namespace) answering through the API server's service proxy from an {@link AlertEvaluator} on the virtual
 * clock. Clusters without the namespace have no monitoring, and the proxy answers 404/503 as a real one would.
 */
export function installMonitoring(context: ScenarioContext): AlertEvaluator | undefined {
  if (!context.client.get('namespaces', MONITORING_NAMESPACE)) return undefined;
  const evaluator = new AlertEvaluator(context.client, context.clock);
  if (!context.client.get('services', THANOS_QUERIER, MONITORING_NAMESPACE)) {
    context.as('cluster-monitoring-operator').create('services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: THANOS_QUERIER,
        namespace: MONITORING_NAMESPACE,
        labels: { 'app.kubernetes.io/name': 'thanos-query', 'app.kubernetes.io/part-of': 'openshift-monitoring' },
      },
      spec: {
        type: 'ClusterIP',
        selector: { 'app.kubernetes.io/name': 'thanos-query' },
        ports: [{ name: 'web', port: THANOS_QUERIER_PORT, protocol: 'TCP', targetPort: 'web' }],
      },
    });
  }
  evaluator.start();
  context.proxy.registerService(
    MONITORING_NAMESPACE,
    THANOS_QUERIER,
    THANOS_QUERIER_PORT,
    thanosQuerierHandler(evaluator, () => context.clock.now()),
  );
  return evaluator;
}

/** The in-cluster address in-cluster clients (the CVO) query, as they name it in their errors. */
const QUERY_HOST = `${THANOS_QUERIER}.${MONITORING_NAMESPACE}.svc.cluster.local`;
const QUERY_URL = `https://${QUERY_HOST}:${THANOS_QUERIER_PORT}/api/v1/query`;

interface QueryAnswer {
  status?: string;
  errorType?: string;
  error?: string;
  data?: { resultType?: string; result?: { value: [number, string] }[] };
}

/**
 * One instant PromQL query to the cluster's thanos-querier, as an in-cluster client (the CVO) makes it: the
 * vector's sample values, or the Prometheus client's error (`bad_data: ...`, or the lookup failure of a cluster
 * without monitoring).
 */
export function queryMonitoring(proxy: PodProxy, promql: string): PromqlAnswer {
  const path = `/api/v1/query?query=${encodeURIComponent(promql)}`;
  const answer = proxy.handle('services', MONITORING_NAMESPACE, THANOS_QUERIER, THANOS_QUERIER_PORT, path);
  if (!answer) return { ok: false, error: `Post "${QUERY_URL}": dial tcp: lookup ${QUERY_HOST}: no such host` };
  let body: QueryAnswer;
  try {
    body = JSON.parse(answer.body) as QueryAnswer;
  } catch {
    return { ok: false, error: `client_error: client error: ${answer.status}` };
  }
  if (body.status !== 'success') {
    return {
      ok: false,
      error: `${body.errorType ?? 'server_error'}: ${body.error ?? `server error: ${answer.status}`}`,
    };
  }
  if (body.data?.resultType !== 'vector') {
    return { ok: false, error: `invalid PromQL result type is ${body.data?.resultType ?? 'none'}, not vector` };
  }
  return { ok: true, values: (body.data.result ?? []).map((sample) => Number(sample.value[1])) };
}
