import type { Scenario, ScenarioName } from '../types';
import { catalogdRolloutScenario } from './catalogd-rollout';
import { crossMinorRollbackScenario } from './cross-minor-rollback';
import { extensionInstallFlapScenario } from './extension-install-flap';
import { highDensityDrainScenario } from './high-density-drain';
import { hypershiftFeatureGateDropScenario } from './hypershift-featuregate-drop';
import { steadyScenario } from './steady';
import { updateInProgressScenario } from './update-in-progress';

/** Every scenario the embedded fleet can run, by name. */
export const SCENARIOS: Partial<Record<ScenarioName, Scenario>> = {
  steady: steadyScenario,
  'update-in-progress': updateInProgressScenario,
  'cross-minor-rollback': crossMinorRollbackScenario,
  'hypershift-featuregate-drop': hypershiftFeatureGateDropScenario,
  'catalogd-rollout': catalogdRolloutScenario,
  'high-density-drain': highDensityDrainScenario,
  'extension-install-flap': extensionInstallFlapScenario,
};
