import 'server-only';
import { serviceMetrics } from './service-metrics';

/**
 * A route handler that records its latency under its route pattern (`/api/clusters/[id]/health`, never the concrete
 * path, so the label set stays small). A handler that throws is counted as 500.
 */
export function timedRoute<A extends [Request, ...unknown[]]>(
  route: string,
  handler: (...args: A) => Response | Promise<Response>,
) {
  return async (...args: A): Promise<Response> => {
    const end = serviceMetrics().httpSeconds.startTimer({ route, method: args[0].method });
    try {
      const response = await handler(...args);
      end({ code: String(response.status) });
      return response;
    } catch (error) {
      end({ code: '500' });
      throw error;
    }
  };
}
