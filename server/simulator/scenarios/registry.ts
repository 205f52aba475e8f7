import type { Scenario, ScenarioName } from '../types';
import { crossMinorRollbackScenario } from './cross-minor-rollback';
import { hypershiftFeatureGateDropScenario } from './hypershift-featuregate-drop';
import { steadyScenario } from './steady';

/** Every scenario the embedded fleet can run, by name. */
export const SCENARIOS: Partial<Record<ScenarioName, Scenario>> = {
  steady: steadyScenario,
  'cross-minor-rollback': crossMinorRollbackScenario,
  'hypershift-featuregate-drop': hypershiftFeatureGateDropScenario,
};
