import 'server-only';
import { z } from 'zod';
import { userIdentitySchema, type Viewer } from './identity';

/** The request header the edge sets for routes (and strips from every incoming request, so it cannot be forged). */
export const VIEWER_HEADER = 'x-update-health-viewer';

const viewerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  z.object({ kind: z.literal('user'), user: userIdentitySchema, via: z.enum(['session', 'bearer']) }),
]);

/** The header value for a viewer. */
export function encodeViewer(viewer: Viewer): string {
  return Buffer.from(JSON.stringify(viewer)).toString('base64url');
}

/** The viewer the edge authenticated, or undefined when the header is missing or malformed. */
export function decodeViewer(value: string | null): Viewer | undefined {
  if (!value) return undefined;
  try {
    const parsed = viewerSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
