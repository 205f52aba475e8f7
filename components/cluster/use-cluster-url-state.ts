'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { DEFAULT_RANGE, type TimeRange } from '@/lib/charts/time-range';
import { parseClusterUrlState, withClusterUrlState, type ClusterUrlState } from '@/lib/view/cluster-url-state';

/**
 * The cluster view's state kept in the URL (`?range=&panel=&finding=`), so a copied URL reopens the same view.
 * Updates replace the history entry and do not scroll. `defaultRange` is the range of a URL without one.
 */
export function useClusterUrlState(
  defaultRange: TimeRange = DEFAULT_RANGE,
): [ClusterUrlState, (patch: Partial<ClusterUrlState>) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const query = params.toString();
  const state = useMemo(() => parseClusterUrlState(new URLSearchParams(query), defaultRange), [query, defaultRange]);
  const update = useCallback(
    (patch: Partial<ClusterUrlState>) => {
      // Read the live URL, not the render-time params, so two quick updates do not undo each other.
      const current = new URLSearchParams(window.location.search);
      router.replace(`${pathname}${withClusterUrlState(current, patch, defaultRange)}`, { scroll: false });
    },
    [pathname, router, defaultRange],
  );
  return [state, update];
}
