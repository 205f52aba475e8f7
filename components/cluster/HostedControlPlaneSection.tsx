import Link from 'next/link';
import type { HostedDetailsDto } from '@/lib/api/dto';
import { compareByBadness } from '@/lib/view/badness-order';

/**
 * A hosted cluster's control plane as its management cluster shows it: where it is hosted, the HostedCluster
 * conditions that are not as expected, NodePools, ControlPlaneComponents and the pods of the HCP namespace.
 */
export function HostedControlPlaneSection({ hosted, managedBy }: { hosted: HostedDetailsDto; managedBy?: string }) {
  const unhealthy = hosted.conditions.filter((c) =>
    c.type === 'Degraded'
      ? c.status === 'True'
      : ['Available', 'ClusterVersionSucceeding'].includes(c.type) && c.status === 'False',
  );
  const notRunning = hosted.pods.filter((pod) => pod.status !== 'Running').length;
  // Worst first: crash-looping, not ready, unavailable or still rolling out rows head their tables.
  const components = [...hosted.components].sort(compareByBadness);
  const pods = [...hosted.pods].sort(compareByBadness);
  return (
    <div data-testid="hosted-control-plane">
      <p>
        HostedCluster{' '}
        <code>
          {hosted.namespace}/{hosted.name}
        </code>
        {hosted.platform ? ` on ${hosted.platform}` : ''}, control plane in namespace <code>{hosted.hcpNamespace}</code>
        {managedBy ? (
          <>
            {' '}
            of management cluster{' '}
            <Link href={`/clusters/${encodeURIComponent(managedBy)}`} data-testid="managed-by">
              {managedBy}
            </Link>
          </>
        ) : null}
        .
      </p>
      {unhealthy.length > 0 ? (
        <ul data-testid="hosted-conditions">
          {unhealthy.map((c) => (
            <li key={c.type}>
              <strong>
                {c.type}={c.status}
              </strong>
              {c.reason ? ` (${c.reason})` : ''}
              {c.message ? `: ${c.message}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
      <h3>NodePools</h3>
      {hosted.nodePools.length === 0 ? (
        <p className="muted">No NodePools.</p>
      ) : (
        <table className="table" data-testid="nodepools">
          <thead>
            <tr>
              <th scope="col">NodePool</th>
              <th scope="col">Nodes (current / desired)</th>
              <th scope="col">Version</th>
              <th scope="col">Updating</th>
            </tr>
          </thead>
          <tbody>
            {hosted.nodePools.map((pool) => (
              <tr key={pool.name}>
                <th scope="row">{pool.name}</th>
                <td>
                  {pool.currentNodes ?? '?'} / {pool.desiredNodes ?? '?'}
                </td>
                <td>{pool.version ?? '—'}</td>
                <td>{pool.updating ? pool.message || `to ${pool.targetVersion ?? '?'}` : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Control-plane components</h3>
      {hosted.components.length === 0 ? (
        <p className="muted">No ControlPlaneComponents reported.</p>
      ) : (
        <table className="table" data-testid="control-plane-components">
          <thead>
            <tr>
              <th scope="col">Component</th>
              <th scope="col">Version</th>
              <th scope="col">Available</th>
              <th scope="col">Rollout complete</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {components.map((c) => (
              <tr key={c.name} data-available={c.available ?? ''}>
                <th scope="row">{c.name}</th>
                <td>{c.version ?? '—'}</td>
                <td>{c.available ?? '—'}</td>
                <td>{c.rolloutComplete ?? '—'}</td>
                <td>{c.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>
        Pods in {hosted.hcpNamespace}{' '}
        <span className="muted">
          ({hosted.pods.length}, {notRunning} not running)
        </span>
      </h3>
      {hosted.pods.length === 0 ? (
        <p className="muted">No pods seen.</p>
      ) : (
        <table className="table" data-testid="hcp-pods">
          <thead>
            <tr>
              <th scope="col">Pod</th>
              <th scope="col">Ready</th>
              <th scope="col">Status</th>
              <th scope="col">Restarts</th>
            </tr>
          </thead>
          <tbody>
            {pods.map((pod) => (
              <tr key={pod.name} data-status={pod.status}>
                <th scope="row">{pod.name}</th>
                <td>{pod.ready}</td>
                <td>{pod.status}</td>
                <td>{pod.restarts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
