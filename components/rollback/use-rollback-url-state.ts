'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';

/** The guide's state kept in the URL (`?to=&accept=1&tracking=1`), so a copied URL reopens the same plan. */
export interface RollbackUrlState {
  to: string | null;
  accept: boolean;
  tracking: boolean;
}

/** Reads and patches the guide's URL state (replacing the history entry, without scrolling). */
export function useRollbackUrlState(): [RollbackUrlState, (patch: Partial<RollbackUrlState>) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const query = params.toString();
  const state = useMemo(() => {
    const p = new URLSearchParams(query);
    return { to: p.get('to') || null, accept: p.get('accept') === '1', tracking: p.get('tracking') === '1' };
  }, [query]);
  const update = useCallback(
    (patch: Partial<RollbackUrlState>) => {
      const next = new URLSearchParams(window.location.search);
      if ('to' in patch) {
        if (patch.to) next.set('to', patch.to);
        else next.delete('to');
      }
      if ('accept' in patch) {
        if (patch.accept) next.set('accept', '1');
        else next.delete('accept');
      }
      if ('tracking' in patch) {
        if (patch.tracking) next.set('tracking', '1');
        else next.delete('tracking');
      }
      const s = next.toString();
      router.replace(`${pathname}${s ? `?${s}` : ''}`, { scroll: false });
    },
    [pathname, router],
  );
  return [state, update];
}
