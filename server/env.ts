import 'server-only';
import { z } from 'zod';

const envSchema = z.object({
  UPDATE_HEALTH_KUBECONFIG: z.string().min(1, 'UPDATE_HEALTH_KUBECONFIG must name a kubeconfig file'),
  /** Comma-separated kubeconfig contexts to watch; all contexts when unset. */
  UPDATE_HEALTH_CONTEXTS: z.string().optional(),
  UPDATE_HEALTH_DATA_DIR: z.string().default('./data'),
  /** Set by the launcher when the kubeconfig points at the embedded fleet. */
  UPDATE_HEALTH_EMBEDDED: z.enum(['0', '1']).default('0'),
});

/** Server configuration, parsed once from the environment. */
export type ServerEnv = z.infer<typeof envSchema>;

/** Thrown when the environment is incomplete or malformed; lists every problem at once. */
export class EnvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvError';
  }
}

let cached: ServerEnv | undefined;

/** The parsed environment. Fails fast with every missing or malformed key named. */
export function serverEnv(): ServerEnv {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(`Update Health server configuration is invalid:\n  ${problems.join('\n  ')}\n` +
      'Start it with `npm start` (embedded fleet) or `npm start -- --kubeconfig PATH [--context NAME]`.');
  }
  cached = parsed.data;
  return cached;
}
