import 'server-only';
import { headers } from 'next/headers';
import type { Viewer } from '@/server/auth/identity';
import { viewerOf } from '@/server/auth/viewer';

/** The viewer of a must-gather page, from the header the edge set on the request (as routes read it). */
export async function pageViewer(): Promise<Viewer | undefined> {
  return viewerOf(new Request('http://page.invalid/', { headers: await headers() }));
}
