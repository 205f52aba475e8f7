'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { fleetViewQuery, parseFleetView, type FleetView } from '@/lib/view/fleet-rows';

/** Fleet filters and sort kept in the URL (`?q=&sort=&dir=&sev=&upd=&role=&mgmt=&ver=`), defaults omitted. */
export function useFleetUrlState(): [FleetView, (patch: Partial<FleetView>) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const query = params.toString();
  const view = useMemo(() => parseFleetView(new URLSearchParams(query)), [query]);
  const update = useCallback((patch: Partial<FleetView>) => {
    const s = fleetViewQuery({ ...parseFleetView(new URLSearchParams(window.location.search)), ...patch });
    router.replace(s ? `${pathname}?${s}` : pathname, { scroll: false });
  }, [pathname, router]);
  return [view, update];
}
