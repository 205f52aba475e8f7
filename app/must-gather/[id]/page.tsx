import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { AppHeader } from '@/components/shell/AppHeader';
import { MustGatherResultView } from '@/components/must-gather/MustGatherResultView';
import type { MustGatherResultDto } from '@/lib/api/must-gather-dto';
import { resultFor } from '@/server/offline/must-gather-requests';
import { pageViewer } from '../page-viewer';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

async function readable(params: Props['params']): Promise<MustGatherResultDto | undefined> {
  const viewer = await pageViewer();
  return viewer ? resultFor(viewer, (await params).id) : undefined;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const result = await readable(params);
  return { title: `${result ? result.health.cluster.name : 'Must-gather'} (must-gather) · Update Health` };
}

export default async function MustGatherResultPage({ params }: Props) {
  const result = await readable(params);
  if (!result) {
    return (
      <>
        <AppHeader />
        <main id="main" role="alert" data-testid="must-gather-missing" style={{ padding: '16px 24px' }}>
          <h1>Analysis not found</h1>
          <p>
            Must-gather analyses are kept in the server&apos;s memory for a day at most and are lost on restart; each is
            shown only to whoever uploaded it and to must-gather administrators.
          </p>
          <p>
            <Link href="/must-gather">Analyze a must-gather</Link>
          </p>
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
