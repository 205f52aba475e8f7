import type { ServiceAccountTokens } from '../access/service-account-tokens';
import type { VirtualClock } from '../types';
import { AGENT_ADDON_NAMESPACE, MANAGED_SERVICE_ACCOUNT } from '@/lib/acm/ocm-names';

interface TokenState {
  current: string;
  cancelRotation: () => void;
  /** Revocations of rotated-out tokens still in their grace period. */
  pendingRevocations: Map<string, () => void>;
}

/**
 * The managed-serviceaccount agent's token lifecycle per cluster, on the hub's clock: a token every `ttlMs`, the
 * one it replaces revoked `graceMs` later (clients holding it get 401 from then on).
 */
export class TokenRotation {
  private readonly states = new Map<string, TokenState>();

  constructor(
    private readonly clock: VirtualClock,
    private readonly ttlMs: number,
    private readonly graceMs: number,
  ) {}

  /** The clusters with a live token. */
  names(): string[] {
    return [...this.states.keys()];
  }

  /** The token currently handed out for a cluster. */
  current(name: string): string | undefined {
    return this.states.get(name)?.current;
  }

  /**
   * Mints a token of the managed service account from `issuer` (the cluster's TokenRequest) now, the next one
   * after `untilNextMs` (default: the TTL) and every TTL from then on, calling `report` with each new token and when
   * it will be replaced; the previous one stays valid for the grace period.
   */
  issue(
    name: string,
    issuer: ServiceAccountTokens,
    report: (token: string, replacedAtMs: number) => void,
    untilNextMs = this.ttlMs,
  ): void {
    const state = this.states.get(name) ?? {
      current: '',
      cancelRotation: () => undefined,
      pendingRevocations: new Map(),
    };
    state.cancelRotation();
    const previous = state.current;
    if (previous) {
      const revoke = () => {
        issuer.revoke(previous);
        state.pendingRevocations.delete(previous);
      };
      state.pendingRevocations.set(previous, this.clock.setTimeout(revoke, this.graceMs));
    }
    state.current = issuer.mint(AGENT_ADDON_NAMESPACE, MANAGED_SERVICE_ACCOUNT);
    state.cancelRotation = this.clock.setTimeout(() => this.issue(name, issuer, report), untilNextMs);
    this.states.set(name, state);
    report(state.current, this.clock.now() + untilNextMs);
  }

  /** Revokes every token of a cluster at once (its ServiceAccount is gone) and stops rotating it. */
  forget(name: string, issuer: ServiceAccountTokens | undefined): void {
    const state = this.states.get(name);
    if (!state) return;
    this.cancel(state);
    issuer?.revoke(state.current);
    for (const token of state.pendingRevocations.keys()) issuer?.revoke(token);
    this.states.delete(name);
  }

  /** Cancels every timer (tokens stay as they are). */
  stop(): void {
    for (const state of this.states.values()) this.cancel(state);
    this.states.clear();
  }

  private cancel(state: TokenState): void {
    state.cancelRotation();
    for (const cancel of state.pendingRevocations.values()) cancel();
  }
}
