/** The catalog-replicas panel's charts. Kept apart from the rule so the browser takes the chart without the detector. */
import { countChart, detectorChartSpec, type DetectorSpec } from '@/lib/charts/chart-spec';

/** Chart metadata of the `catalog-replicas` detector. */
export const catalogReplicasChart: DetectorSpec = detectorChartSpec({
  id: 'catalog-replicas',
  failureMode: 'C',
  title: 'Catalog replicas',
  kind: 'step',
  primary: 'ready',
  question: 'OLMv1 catalog Deployments: desired vs ready vs available, and PDB disruptions allowed',
  // Replicas and the disruptions a PDB allows are both counts of pods: one axis.
  charts: [
    countChart('pods', [
      ['desired', 'Desired'],
      ['ready', 'Ready'],
      ['available', 'Available'],
      ['pdbDisruptionsAllowed', 'PDB disruptions allowed'],
      ['operatorControllerReady', 'operator-controller ready'],
    ]),
  ],
});
