'use client';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { getQueryClient } from '@/components/query-client';

// The page's CSP forbids eval: zod must not compile parsers with `new Function` (nor probe whether it may, which
// the browser reports as a violation even though zod catches it).
z.config({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={getQueryClient()}>{children}</QueryClientProvider>;
}
