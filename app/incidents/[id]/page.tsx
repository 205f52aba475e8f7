import type { Metadata } from 'next';
import { Suspense } from 'react';
import { IncidentView } from '@/components/incidents/IncidentView';

type Props = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: 'Incident · Update Health', referrer: 'no-referrer' };

export default async function IncidentPage({ params }: Props) {
  const { id } = await params;
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <IncidentView id={id} />
    </Suspense>
  );
}
