import type { Scenario, ScenarioName } from '../types';
import { installMonitoring } from '../monitoring/thanos-querier';
import { catalogdRolloutScenario } from './catalogd-rollout';
import { crossMinorRollbackScenario } from './cross-minor-rollback';
import { extensionInstallFlapScenario, extensionInstallFlapWithXssProbe } from './extension-install-flap';
import { highDensityDrainScenario } from './high-density-drain';
import { hypershiftFeatureGateDropScenario } from './hypershift-featuregate-drop';
import { hypershiftManagementScenario } from './hypershift-management';
import { steadyScenario } from './steady';
import { updateInProgressScenario } from './update-in-progress';

/** A scenario whose cluster also runs monitoring: alerts evaluated from its objects, served by thanos-querier. */
function monitored(scenario: Scenario): Scenario {
  return {
    ...scenario,
    start(context) {
      scenario.start(context);
      installMonitoring(context);
    },
  };
}

/** Every scenario the embedded fleet can run, by name. */
export const SCENARIOS: Partial<Record<ScenarioName, Scenario>> = {
  steady: monitored(steadyScenario),
  'update-in-progress': monitored(updateInProgressScenario),
  'cross-minor-rollback': monitored(crossMinorRollbackScenario),
  'hypershift-featuregate-drop': monitored(hypershiftFeatureGateDropScenario),
  'catalogd-rollout': monitored(catalogdRolloutScenario),
  'high-density-drain': monitored(highDensityDrainScenario),
  'extension-install-flap': monitored(extensionInstallFlapScenario),
  'hypershift-management': monitored(hypershiftManagementScenario),
};

/** Scenarios that carry test-only probes when asked (`xssProbe`): the XSS corpus ClusterExtension. */
export const XSS_PROBE_SCENARIOS: Partial<Record<ScenarioName, Scenario>> = {
  'extension-install-flap': monitored(extensionInstallFlapWithXssProbe),
};

/** A scenario by name, with its test-only probes when `xssProbe` (undefined when no such scenario). */
export function scenarioNamed(name: ScenarioName, options: { xssProbe?: boolean } = {}): Scenario | undefined {
  return (options.xssProbe ? XSS_PROBE_SCENARIOS[name] : undefined) ?? SCENARIOS[name];
}
