import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // The watch layer is Node-only; keeping client-node external keeps it out of every bundle.
  serverExternalPackages: ['@kubernetes/client-node', 'prom-client'],
  poweredByHeader: false,
  // Compression would buffer text/event-stream responses; the SSE route also sets no-transform.
  compress: false,
};

export default nextConfig;
