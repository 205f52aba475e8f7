import { Suspense } from 'react';
import { FleetView } from '@/components/fleet/FleetView';

export default function FleetPage() {
  // FleetView reads its filter/sort from the URL; the boundary lets the shell prerender without it.
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <FleetView />
    </Suspense>
  );
}
