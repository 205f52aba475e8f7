import type { ClusterHealthDto } from '@/lib/api/dto';

/** Says what the viewer's RBAC hides on this cluster, and which access would show it; nothing when nothing is hidden. */
export function HiddenFindingsNote({ access }: { access: ClusterHealthDto['access'] }) {
  if (!access || (access.hiddenFindings === 0 && access.clusterVersion)) return null;
  const parts = [
    access.hiddenFindings > 0
      ? `${access.hiddenFindings} finding${access.hiddenFindings === 1 ? ' is' : 's are'} hidden by your access`
      : null,
    access.clusterVersion ? null : 'the version and history need read access to the ClusterVersion',
  ].filter(Boolean);
  return (
    <div className="note" role="note" data-testid="hidden-findings">
      <p>{parts.join('; ')}.</p>
      {access.missing.length > 0 ? (
        <p>
          Access that would show them:{' '}
          {access.missing.map((missing, i) => (
            <span key={missing}>
              {i > 0 ? ', ' : ''}
              <code>{missing}</code>
            </span>
          ))}
        </p>
      ) : null}
    </div>
  );
}
