import Link from 'next/link';
import { ApiError } from '@/lib/queries/api-error';

/** What a page about one cluster shows when its health cannot be loaded: not watched (404), or a retryable error. */
export function ClusterLoadError({ id, error, onRetry }: { id: string; error: Error; onRetry: () => void }) {
  const notFound = error instanceof ApiError && error.status === 404;
  return (
    <div role="alert" data-testid="cluster-error">
      <h1>{notFound ? 'Cluster not found' : 'Cannot load cluster'}</h1>
      {/* A cluster the viewer may not see answers 404 like one that does not exist: say what is true of both. */}
      <p>{notFound ? `No cluster with id “${id}” is watched, or you may not see it.` : error.message}</p>
      <p>
        <Link href="/">Back to the fleet</Link>
      </p>
      {!notFound ? (
        <button type="button" className="btn" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
