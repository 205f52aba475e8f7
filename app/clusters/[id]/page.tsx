import type { Metadata } from 'next';
import { Suspense } from 'react';
import { decodePathSegment } from '@/lib/view/path-segment';
import { ClusterView } from '@/components/cluster/ClusterView';

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  return { title: `${decodePathSegment(id)} · Update Health` };
}

export default async function ClusterPage({ params }: Props) {
  const { id } = await params;
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <ClusterView id={decodePathSegment(id)} />
    </Suspense>
  );
}
