import type { Metadata } from 'next';
import { MustGatherOpen } from '@/components/must-gather/MustGatherOpen';
import { mustGatherRoot } from '@/server/env';
import { mayAdministerMustGathers } from '@/server/offline/must-gather-requests';
import { pageViewer } from './page-viewer';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Must-gather · Update Health' };

export default async function MustGatherPage() {
  const viewer = await pageViewer();
  // Only must-gather administrators open server paths, so only they learn where the directory is.
  const administers = viewer ? await mayAdministerMustGathers(viewer) : false;
  return <MustGatherOpen root={administers ? mustGatherRoot() : undefined} />;
}
