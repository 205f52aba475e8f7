/** The featuregate-coverage panel's charts. Kept apart from the rule so the browser takes the chart without the detector. */
import { countChart, detectorChartSpec, type DetectorSpec } from '@/lib/charts/chart-spec';

/** Chart metadata of the `featuregate-coverage` detector. */
export const featureGateCoverageChart: DetectorSpec = detectorChartSpec({
  id: 'featuregate-coverage',
  failureMode: 'A',
  title: 'FeatureGate version coverage',
  kind: 'step',
  primary: 'missing',
  question: 'Release versions required by running components vs listed in the FeatureGate status',
  charts: [
    countChart('versions', [
      ['required', 'Required versions'],
      ['present', 'Present versions'],
      ['missing', 'Missing versions'],
    ]),
  ],
});
