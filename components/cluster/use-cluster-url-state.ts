'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { parseClusterUrlState, withClusterUrlState, type ClusterUrlState } from '@/lib/view/cluster-url-state';

/**
 * The cluster view's state kept in the URL (`?range=&panel=&finding=`), so a copied URL reopens the same view.
 * Updates replace the history entry and do not scroll.
 */
export function useClusterUrlState(): [ClusterUrlState, (patch: Partial<ClusterUrlState>) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const query = params.toString();
  const state = useMemo(() => parseClusterUrlState(new URLSearchParams(query)), [query]);
  const update = useCallback(
    (patch: Partial<ClusterUrlState>) => {
      // Read the live URL, not the render-time params, so two quick updates do not undo each other.
      const current = new URLSearchParams(window.location.search);
      router.replace(`${pathname}${withClusterUrlState(current, patch)}`, { scroll: false });
    },
    [pathname, router],
  );
  return [state, update];
}
