import type { ResourceName } from '@/lib/k8s/resources';
import type { FaultRule } from './types';

/** The verb of a request as fault rules see it. */
export type FaultVerb = 'get' | 'list' | 'watch' | 'other';

interface ActiveRule {
  id: string;
  rule: FaultRule;
  remaining: number;
}

/** Holds the active fault rules of one simulated cluster; the HTTP server asks it about every request. */
export class FaultInjector {
  private rules: ActiveRule[] = [];
  private nextId = 1;

  /** Adds a rule and returns its id. */
  add(rule: FaultRule): string {
    const id = `fault-${this.nextId++}`;
    this.rules.push({ id, rule: { ...rule }, remaining: rule.count ?? Infinity });
    return id;
  }

  /** Removes one rule by id, or all rules. */
  clear(id?: string): void {
    this.rules = id === undefined ? [] : this.rules.filter((active) => active.id !== id);
  }

  /** The active rules (for inspection). */
  list(): { id: string; rule: FaultRule; remaining: number }[] {
    return this.rules.map((active) => ({ ...active, rule: { ...active.rule } }));
  }

  /** The first rule matching the request, consuming one of its `count`. */
  take(resource: ResourceName | undefined, verb: FaultVerb): FaultRule | undefined {
    const index = this.rules.findIndex(({ rule }) => {
      if (rule.resource && rule.resource !== resource) return false;
      if (rule.verb && rule.verb !== 'any' && rule.verb !== verb) return false;
      return true;
    });
    if (index < 0) return undefined;
    const active = this.rules[index];
    active.remaining -= 1;
    if (active.remaining <= 0) this.rules.splice(index, 1);
    return active.rule;
  }
}
