import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ClusterView } from '@/components/cluster/ClusterView';

type Props = { params: Promise<{ id: string }> };

function decodeId(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  return { title: `${decodeId(id)} · Update Health` };
}

export default async function ClusterPage({ params }: Props) {
  const { id } = await params;
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <ClusterView id={decodeId(id)} />
    </Suspense>
  );
}
