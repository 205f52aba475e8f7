import Link from 'next/link';
import type { ReactNode } from 'react';
import { ThemeToggle } from '@/components/theme/ThemeToggle';
import { UserMenu } from './UserMenu';

/** Banner shared by every page: skip link, product link, page-specific status, theme toggle. */
export function AppHeader({ children }: { children?: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <Link href="/" className="brand">
          Update Health
        </Link>
        <nav aria-label="Primary">
          <Link href="/">Fleet</Link>
          <Link href="/must-gather">Must-gather</Link>
        </nav>
        <div className="app-header-end">
          {children}
          <UserMenu />
          <ThemeToggle />
        </div>
      </header>
    </>
  );
}
