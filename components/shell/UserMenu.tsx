'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { authQueries } from '@/lib/queries/auth-queries';

/** Who is logged in, and the way out; nothing when the dashboard runs without login. */
export function UserMenu() {
  const { data } = useQuery(authQueries.info());
  const [failed, setFailed] = useState(false);
  if (data?.mode !== 'openshift' || !data.user) return null;
  const logOut = async () => {
    // A fetch, not a form: with Referrer-Policy no-referrer a form POST carries `Origin: null`, which the
    // cross-site check rightly refuses.
    const response = await fetch('/auth/logout', { method: 'POST' }).catch(() => undefined);
    // A full navigation: the logged-out page is a route handler, not a React page.
    if (response?.ok) window.location.assign(new URL('/auth/logged-out', window.location.origin).href);
    else setFailed(true);
  };
  return (
    <div className="user-menu" data-testid="user-menu">
      <span title={data.user.groups.join(', ')}>{data.user.name}</span>
      <button type="button" className="btn" onClick={() => void logOut()}>
        Log out
      </button>
      {failed ? <span role="alert">Logout failed; try again.</span> : null}
    </div>
  );
}
