import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { AppHeader } from '@/components/shell/AppHeader';
import { MustGatherResultView } from '@/components/must-gather/MustGatherResultView';
import { mustGatherResults } from '@/server/offline/result-store';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const result = mustGatherResults().get((await params).id);
  return { title: `${result ? result.health.cluster.name : 'Must-gather'} (must-gather) · Update Health` };
}

export default async function MustGatherResultPage({ params }: Props) {
  const result = mustGatherResults().get((await params).id);
  if (!result) {
    return (
      <>
        <AppHeader />
        <main id="main" role="alert" data-testid="must-gather-missing" style={{ padding: '16px 24px' }}>
          <h1>Analysis not found</h1>
          <p>Must-gather analyses are kept in the server&apos;s memory for a day at most and are lost on restart.</p>
          <p><Link href="/must-gather">Analyze a must-gather</Link></p>
        </main>
      </>
    );
  }
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <MustGatherResultView result={result} />
    </Suspense>
  );
}
