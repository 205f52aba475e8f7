'use client';
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useState } from 'react';
import { fleetViewQuery, parseFleetView, type FleetView } from '@/lib/view/fleet-rows';

/**
 * Fleet filters and sort kept in the URL (`?q=&sort=&dir=&sev=&upd=&role=&mgmt=&ver=`), defaults omitted. A change
 * is applied to the view at once (in the same event, so the table and the URL change together) and written with
 * the History API, which Next.js syncs into `useSearchParams`: no server round trip, and two changes in quick
 * succession each build on the other. A URL changed from outside (back, a link) wins again.
 */
export function useFleetUrlState(): [FleetView, (patch: Partial<FleetView>) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const query = params.toString();
  // The view we wrote, and the URL it was written over: it stands until `useSearchParams` moves on from that URL
  // (to our write, which then says the same, or to a URL changed from outside).
  const [written, setWritten] = useState<{ over: string; view: FleetView } | undefined>(undefined);
  const fromUrl = useMemo(() => parseFleetView(new URLSearchParams(query)), [query]);
  const view = written && written.over === query ? written.view : fromUrl;
  const update = useCallback(
    (patch: Partial<FleetView>) => {
      const next = { ...parseFleetView(new URLSearchParams(window.location.search)), ...patch };
      const s = fleetViewQuery(next);
      setWritten({ over: query, view: next });
      window.history.replaceState(null, '', s ? `${pathname}?${s}` : pathname);
    },
    [pathname, query],
  );
  return [view, update];
}
