import { clusterRoute } from '@/server/auth/api-route';

export const dynamic = 'force-dynamic';

/** A cluster's health as the viewer may see it. */
export const GET = clusterRoute('/api/clusters/[id]/health', {}, ({ cluster }) => cluster.health);
