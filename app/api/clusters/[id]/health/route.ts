import { clusterRoute } from '@/server/auth/api-route';
import { healthOnOpen } from '@/server/auth/cluster-page';

export const dynamic = 'force-dynamic';

/** A cluster's health as the viewer may see it (opening it keeps the cluster on its active tier a while). */
export const GET = clusterRoute('/api/clusters/[id]/health', {}, ({ cluster }) => healthOnOpen(cluster));
