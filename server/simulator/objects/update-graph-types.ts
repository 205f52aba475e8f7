/** A matching rule of an update risk: always applies, or applies when a PromQL query yields 1. */
export type GraphMatchingRule = { type: 'Always' } | { type: 'PromQL'; promql: { promql: string } };

/** A conditional update risk as the update service declares it (and the CVO copies into conditionalUpdates). */
export interface GraphRisk {
  name: string;
  message: string;
  url: string;
  matchingRules: GraphMatchingRule[];
}
