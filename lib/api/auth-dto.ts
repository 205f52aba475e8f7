/** Wire type of `GET /api/auth`. */
import { z } from 'zod';

/** How the dashboard authenticates (`none` on a loopback bind, `openshift` as a team service) and who is logged in. */
export const authInfoSchema = z.object({
  mode: z.enum(['none', 'openshift']),
  /** The OAuth server's issuer URL (null without login, or while the OAuth server cannot be reached). */
  issuer: z.string().nullable(),
  user: z.object({ name: z.string(), groups: z.array(z.string()) }).optional(),
});

export type AuthInfoDto = z.infer<typeof authInfoSchema>;
