import { randomBytes } from 'node:crypto';
import type { UserInfo } from './rbac';

/**
 * Bound service-account tokens a cluster has issued through the TokenRequest API (what the managed-serviceaccount
 * agent asks for on a managed cluster). A token authenticates as its service account until it is revoked; who
 * revokes it, and when, is the issuer's business (the hub's rotation keeps the old token for a grace period).
 */
export class ServiceAccountTokens {
  private readonly byToken = new Map<string, UserInfo>();

  /** Mints a new token for `system:serviceaccount:<namespace>:<name>`. */
  mint(namespace: string, name: string): string {
    const token = `sim-sa-${randomBytes(24).toString('base64url')}`;
    this.byToken.set(token, {
      name: `system:serviceaccount:${namespace}:${name}`,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
    });
    return token;
  }

  /** The service account a live token stands for. */
  lookup(token: string): UserInfo | undefined {
    return this.byToken.get(token);
  }

  /** Makes a token answer 401 from now on. */
  revoke(token: string): void {
    this.byToken.delete(token);
  }
}
