import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Separate build directories let several checkouts' worth of builds (e.g. a demo run beside the tests) coexist.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // The watch layer and the incident store (a native addon) are Node-only; keeping them external keeps them out of every bundle.
  serverExternalPackages: ['@kubernetes/client-node', 'prom-client', 'better-sqlite3', 'pg'],
  poweredByHeader: false,
  // Pages and JSON go out gzip-compressed. The live stream is left alone: its `Cache-Control: no-transform` makes the
  // compression step pass it through, so every event flushes at once (e2e/shared-stream.spec.ts checks both).
  compress: true,
  experimental: {
    // The proxy (proxy.ts) holds a request body while it arrives and cuts it at this size (10 MB by default, which
    // broke real must-gather uploads). Room for the largest upload (MUST_GATHER_MAX_UPLOAD_BYTES, 512 MiB) plus
    // 1 MiB, so a bigger one still arrives past that limit and gets the route's 413 rather than a truncated archive.
    proxyClientMaxBodySize: 513 * 1024 * 1024,
  },
};

export default nextConfig;
