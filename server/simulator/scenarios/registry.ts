import type { Scenario, ScenarioName } from '../types';

/** Every scenario the embedded fleet can run, by name. */
export const SCENARIOS: Partial<Record<ScenarioName, Scenario>> = {};
