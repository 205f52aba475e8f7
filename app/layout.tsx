import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { headers } from 'next/headers';
import '@fontsource/inter/400.css';
import '@fontsource/inter/600.css';
import './globals.css';
import { Providers } from './providers';

export const metadata: Metadata = {
  title: 'Update Health',
  description: 'OpenShift update health: live findings, rollback guide, incidents.',
};

// Applies the stored theme before first paint (a constant string, no data), so a dark choice does not flash light.
const THEME_BOOTSTRAP =
  "try{var t=localStorage.getItem('update-health-theme');if(t==='light'||t==='dark')document.documentElement.dataset.theme=t;}catch(e){}";

// Every page renders per request: the proxy's script nonce exists only then (and all data is live anyway).
export default async function RootLayout({ children }: { children: ReactNode }) {
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_BOOTSTRAP }} />
      </head>
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
