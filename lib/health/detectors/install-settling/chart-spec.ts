/** The install-settling panel's charts. Kept apart from the rule so the browser takes the chart without the detector. */
import { countChart, detectorChartSpec, type DetectorSpec } from '@/lib/charts/chart-spec';

/** Chart metadata of the `install-settling` detector. */
export const installSettlingChart: DetectorSpec = detectorChartSpec({
  id: 'install-settling',
  failureMode: 'E',
  title: 'Install settling',
  kind: 'step',
  primary: 'statusChangesLastMinute',
  question: 'Failure streak length and reconcile cadence of extensions and operators',
  charts: [
    countChart('failed attempts', [['streakLength', 'Failure streak']]),
    countChart('status changes per minute', [['statusChangesLastMinute', 'Status changes / min']]),
  ],
});
