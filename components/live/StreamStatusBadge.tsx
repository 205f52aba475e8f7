import type { StreamStatus } from './live-stream-hub';

const LABEL: Record<StreamStatus, string> = {
  idle: 'Not streaming',
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  closed: 'Stream closed, retrying',
};

/** Connection state of the live stream, as text plus a dot (never colour alone). */
export function StreamStatusBadge({ status }: { status: StreamStatus }) {
  return (
    <span className={`stream-status stream-${status}`} role="status" data-testid="stream-status" data-status={status}>
      <span className="dot" aria-hidden="true" />
      {LABEL[status]}
    </span>
  );
}
