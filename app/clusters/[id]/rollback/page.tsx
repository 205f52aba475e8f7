import type { Metadata } from 'next';
import { Suspense } from 'react';
import { RollbackGuide } from '@/components/rollback/RollbackGuide';

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
  return { title: `Rollback guide · ${decodeId(id)} · Update Health` };
}

export default async function RollbackPage({ params }: Props) {
  const { id } = await params;
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <RollbackGuide id={decodeId(id)} />
    </Suspense>
  );
}
