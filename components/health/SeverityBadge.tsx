import type { SeverityDto } from '@/lib/api/dto';

const ICON: Record<SeverityDto, string> = { critical: '■', warning: '▲', info: '●', ok: '✓' };
const TEXT: Record<SeverityDto, string> = { critical: 'Critical', warning: 'Warning', info: 'Info', ok: 'OK' };

/** Severity as a word plus a shape, so it never relies on colour alone. */
export function SeverityBadge({ severity }: { severity: SeverityDto }) {
  return (
    <span className={`badge badge-${severity}`} data-severity={severity} data-testid="severity-badge">
      <span aria-hidden="true">{ICON[severity]}</span> {TEXT[severity]}
    </span>
  );
}
