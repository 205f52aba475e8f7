import type { Metadata } from 'next';
import { Suspense } from 'react';
import { decodePathSegment } from '@/lib/view/path-segment';
import { RollbackGuide } from '@/components/rollback/RollbackGuide';

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  return { title: `Rollback guide · ${decodePathSegment(id)} · Update Health` };
}

export default async function RollbackPage({ params }: Props) {
  const { id } = await params;
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <RollbackGuide id={decodePathSegment(id)} />
    </Suspense>
  );
}
