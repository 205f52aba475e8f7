import 'server-only';
import http from 'node:http';

/** What a hook decided: it answered the request itself, or the next hook (then Next) takes it. */
export type RequestHookResult = 'handled' | 'continue';

/**
 * A step the Node server runs on a request before Next sees it. A hook that must wait (the upload guard
 * authenticates) returns a promise; the hooks after it, and Next, run once it settles on `'continue'`.
 */
export type RequestHook = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
) => RequestHookResult | Promise<RequestHookResult>;

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
interface Installed {
  hooks: readonly RequestHook[];
}
const holder = globalThis as unknown as { __updateHealthRequestHooks?: Installed };

function failed(res: http.ServerResponse, error: unknown): void {
  console.error(`Update Health: request hook: ${error instanceof Error ? error.message : String(error)}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { code: 'internal', message: 'the request could not be handled' } });
  res.writeHead(500, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    Connection: 'close',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * Runs `hooks` from `from` on, then `next` unless a hook answered. Stays synchronous until a hook returns a
 * promise, so a request no hook waits on reaches Next in the same turn.
 */
function runFrom(
  hooks: readonly RequestHook[],
  from: number,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  next: () => void,
): void {
  for (let i = from; i < hooks.length; i++) {
    let result: RequestHookResult | Promise<RequestHookResult>;
    try {
      result = hooks[i](req, res);
    } catch (error) {
      failed(res, error);
      return;
    }
    if (result === 'handled') return;
    if (result === 'continue') continue;
    // What runs after a hook that waited runs in a promise callback: a throw there is answered, not left unhandled.
    result
      .then((settled) => {
        if (settled === 'continue') runFrom(hooks, i + 1, req, res, next);
      })
      .catch((error: unknown) => failed(res, error));
    return;
  }
  next();
}

/**
 * Makes every Node HTTP server of this process run `hooks`, in order, on each request before its own handler (the
 * list is instrumentation-node.ts's `NODE_REQUEST_HOOKS`). The server's `emit` is patched once per process; a later
 * call (a hot reload, a second register) replaces the list, so each hook runs once per request and the newest code
 * runs.
 */
export function installRequestHooks(hooks: readonly RequestHook[]): void {
  if (holder.__updateHealthRequestHooks) {
    holder.__updateHealthRequestHooks.hooks = hooks;
    return;
  }
  const installed: Installed = { hooks };
  holder.__updateHealthRequestHooks = installed;
  const emit = http.Server.prototype.emit as Emit;
  http.Server.prototype.emit = function withRequestHooks(
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ) {
    if (event !== 'request') return emit.call(this, event, ...args);
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
    let value = true;
    runFrom(installed.hooks, 0, req, res, () => (value = emit.call(this, event, ...args)));
    return value;
  } as typeof emit;
}
