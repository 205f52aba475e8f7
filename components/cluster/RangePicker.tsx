import { TIME_RANGES, type TimeRange } from '@/lib/charts/time-range';

const LABEL: Record<TimeRange, string> = { '15m': '15 min', '1h': '1 hour', '6h': '6 hours', all: 'All' };

/** Time range of the charts as a group of toggle buttons. */
export function RangePicker({ value, onChange }: { value: TimeRange; onChange: (r: TimeRange) => void }) {
  return (
    <div role="group" aria-label="Chart time range" className="range-picker">
      {TIME_RANGES.map((r) => (
        <button key={r} type="button" className="btn btn-small" aria-pressed={value === r} onClick={() => onChange(r)}>
          {LABEL[r]}
        </button>
      ))}
    </div>
  );
}
