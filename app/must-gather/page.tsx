import type { Metadata } from 'next';
import { MustGatherOpen } from '@/components/must-gather/MustGatherOpen';
import { mustGatherRoot } from '@/server/env';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Must-gather · Update Health' };

export default function MustGatherPage() {
  return <MustGatherOpen root={mustGatherRoot()} />;
}
