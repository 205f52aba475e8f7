'use client';
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { fleetViewQuery, parseFleetView, type FleetView } from '@/lib/view/fleet-rows';

/**
 * Fleet filters and sort kept in the URL (`?q=&sort=&dir=&sev=&upd=&role=&mgmt=&ver=`), defaults omitted. Written
 * with the History API, which Next.js syncs into `useSearchParams`: a filter change is a client-side state change,
 * not a server round trip, and two changes in quick succession each build on the other.
 */
export function useFleetUrlState(): [FleetView, (patch: Partial<FleetView>) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const query = params.toString();
  const view = useMemo(() => parseFleetView(new URLSearchParams(query)), [query]);
  const update = useCallback((patch: Partial<FleetView>) => {
    const s = fleetViewQuery({ ...parseFleetView(new URLSearchParams(window.location.search)), ...patch });
    window.history.replaceState(null, '', s ? `${pathname}?${s}` : pathname);
  }, [pathname]);
  return [view, update];
}
