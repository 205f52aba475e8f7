import 'server-only';
import { z } from 'zod';
import { decodeBase64Json, encodeBase64Json } from '@/server/http/base64-json';
import { EDGE_HEADER_PREFIX } from '@/server/http/edge';
import { userIdentitySchema, type Viewer } from './identity';

/** The request header the edge sets for routes (under the prefix it strips from every request: it cannot be forged). */
export const VIEWER_HEADER = `${EDGE_HEADER_PREFIX}viewer`;

const viewerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  z.object({ kind: z.literal('user'), user: userIdentitySchema, via: z.enum(['session', 'bearer']) }),
]);

/** The header value for a viewer. */
export function encodeViewer(viewer: Viewer): string {
  return encodeBase64Json(viewer);
}

/** The viewer the edge authenticated, or undefined when the header is missing or malformed. */
export function decodeViewer(value: string | null): Viewer | undefined {
  return decodeBase64Json(value, viewerSchema);
}
