import type { RollbackCheckStatus, RollbackTrackerStepDto } from '@/lib/api/rollback-dto';

type Status = RollbackCheckStatus | RollbackTrackerStepDto['status'];

const LOOK: Record<Status, { icon: string; text: string; tone: string }> = {
  pass: { icon: '✓', text: 'Pass', tone: 'ok' },
  warn: { icon: '▲', text: 'Warn', tone: 'warning' },
  block: { icon: '■', text: 'Block', tone: 'critical' },
  done: { icon: '✓', text: 'Done', tone: 'ok' },
  active: { icon: '●', text: 'Waiting', tone: 'info' },
  pending: { icon: '○', text: 'Pending', tone: 'info' },
  failed: { icon: '■', text: 'Problem', tone: 'critical' },
};

/** A check or tracker status as a word plus a shape (never colour alone), using the severity badge styles. */
export function CheckStatusBadge({ status }: { status: Status }) {
  const look = LOOK[status];
  return (
    <span className={`badge badge-${look.tone}`} data-testid="check-status" data-status={status}>
      <span aria-hidden="true">{look.icon}</span> {look.text}
    </span>
  );
}
