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
    // The proxy (proxy.ts) holds a request body in memory while it runs. Must-gather uploads do not pass it (see its
    // matcher and server/offline/upload-guard.ts); every other body is small JSON (an incident request is at most
    // 16 KiB), so 1 MiB bounds what a hostile client can make each request hold.
    proxyClientMaxBodySize: 1024 * 1024,
  },
};

export default nextConfig;
