import { z } from 'zod';

/**
 * A person (or client) as the cluster authenticated them: what SubjectAccessReview needs. `uid` and `extra` are the
 * TokenReview's (`extra` carries an OAuth token's scopes under `scopes.authorization.openshift.io`); a review that
 * drops them asks about the user's full access instead of what the token may do.
 */
export const userIdentitySchema = z.object({
  name: z.string().min(1),
  groups: z.array(z.string()),
  uid: z.string().optional(),
  extra: z.record(z.string(), z.array(z.string())).optional(),
});

/** A person (or client) as the cluster authenticated them. */
export type UserIdentity = z.infer<typeof userIdentitySchema>;

/** The `extra` key under which OpenShift reports an OAuth access token's scopes. */
export const SCOPES_EXTRA_KEY = 'scopes.authorization.openshift.io';

/**
 * Who is looking: with `--auth none` the local operator (sees what the service sees), otherwise an authenticated
 * user, via a browser session or a bearer token.
 */
export type Viewer = { kind: 'local' } | { kind: 'user'; user: UserIdentity; via: 'session' | 'bearer' };

/**
 * The name a viewer acts under: the user's name as the cluster authenticated it, or null for the local operator
 * (`--auth none`). What incidents and must-gather analyses record as their creator, and refusals name.
 */
export function viewerName(viewer: Viewer): string | null {
  return viewer.kind === 'user' ? viewer.user.name : null;
}
