import { z } from 'zod';

/** A person (or client) as the cluster authenticated them: what SubjectAccessReview needs. */
export const userIdentitySchema = z.object({ name: z.string().min(1), groups: z.array(z.string()) });

/** A person (or client) as the cluster authenticated them. */
export type UserIdentity = z.infer<typeof userIdentitySchema>;

/**
 * Who is looking: with `--auth none` the local operator (sees what the service sees), otherwise an authenticated
 * user, via a browser session or a bearer token.
 */
export type Viewer = { kind: 'local' } | { kind: 'user'; user: UserIdentity; via: 'session' | 'bearer' };
