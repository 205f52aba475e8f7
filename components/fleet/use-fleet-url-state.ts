'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { DEFAULT_FLEET_VIEW, parseFleetView, type FleetView } from '@/lib/view/fleet-rows';

/** Fleet filter and sort kept in the URL (`?q=&sort=&dir=`), defaults omitted. */
export function useFleetUrlState(): [FleetView, (patch: Partial<FleetView>) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const query = params.toString();
  const view = useMemo(() => parseFleetView(new URLSearchParams(query)), [query]);
  const update = useCallback((patch: Partial<FleetView>) => {
    const next = { ...parseFleetView(new URLSearchParams(window.location.search)), ...patch };
    const out = new URLSearchParams();
    if (next.q) out.set('q', next.q);
    if (next.sort !== DEFAULT_FLEET_VIEW.sort) out.set('sort', next.sort);
    if (next.dir !== DEFAULT_FLEET_VIEW.dir) out.set('dir', next.dir);
    const s = out.toString();
    router.replace(s ? `${pathname}?${s}` : pathname, { scroll: false });
  }, [pathname, router]);
  return [view, update];
}
