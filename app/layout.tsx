import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import '@fontsource/inter/400.css';
import '@fontsource/inter/600.css';
import './globals.css';
import { Providers } from './providers';

export const metadata: Metadata = {
  title: 'Update Health',
  description: 'OpenShift update health: live findings, rollback guide, incidents.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
