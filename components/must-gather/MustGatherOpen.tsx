'use client';
import { useRouter } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { AppHeader } from '@/components/shell/AppHeader';
import { openServerPath, uploadArchive } from './upload-archive';
import styles from './must-gather.module.css';

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; fraction: number }
  | { kind: 'analyzing' }
  | { kind: 'opening' }
  | { kind: 'error'; message: string };

/**
 * The `/must-gather` page: upload an archive (with upload progress), or, for must-gather administrators (`root`
 * given), open a path under the server's directory.
 */
export function MustGatherOpen({ root }: { root?: string }) {
  const router = useRouter();
  const fileRef = useRef<HTMLInputElement>(null);
  const [path, setPath] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [percent, setPercent] = useState<number | null>(null);
  const busy = phase.kind === 'uploading' || phase.kind === 'analyzing' || phase.kind === 'opening';

  const fail = (error: unknown) =>
    setPhase({ kind: 'error', message: error instanceof Error ? error.message : String(error) });

  const onUpload = async (event: FormEvent) => {
    event.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) return setPhase({ kind: 'error', message: 'Choose a .tar or .tar.gz must-gather archive first.' });
    setPercent(0);
    setPhase({ kind: 'uploading', fraction: 0 });
    try {
      const created = await uploadArchive(file, (fraction) => {
        setPercent(Math.round(fraction * 100));
        setPhase(fraction >= 1 ? { kind: 'analyzing' } : { kind: 'uploading', fraction });
      });
      router.push(created.url);
    } catch (error) {
      fail(error);
    }
  };

  const onOpenPath = async (event: FormEvent) => {
    event.preventDefault();
    if (!path.trim()) return setPhase({ kind: 'error', message: 'Type a path under the must-gather directory.' });
    setPercent(null);
    setPhase({ kind: 'opening' });
    try {
      router.push((await openServerPath(path.trim())).url);
    } catch (error) {
      fail(error);
    }
  };

  return (
    <>
      <AppHeader />
      <main id="main" className={styles.main}>
        <h1>Analyze a must-gather</h1>
        <p className="muted">
          The same detectors as on a live cluster, on a static snapshot. Archives are streamed and analyzed as they
          arrive, never extracted; results are kept in the server&apos;s memory under an unguessable link that only you
          (and must-gather administrators) can open.
        </p>
        <form className={styles.card} onSubmit={(event) => void onUpload(event)} aria-labelledby="upload-title">
          <h2 id="upload-title">Upload an archive</h2>
          <div className={styles.row}>
            <label htmlFor="must-gather-file" className="visually-hidden">
              Must-gather archive (.tar or .tar.gz)
            </label>
            <input
              id="must-gather-file"
              ref={fileRef}
              type="file"
              accept=".tar,.tgz,.gz,.tar.gz,application/gzip,application/x-tar"
              disabled={busy}
              data-testid="must-gather-file"
            />
            <button type="submit" className="btn" disabled={busy}>
              Upload and analyze
            </button>
          </div>
          {percent !== null ? (
            <div className={styles.progress}>
              <progress
                max={100}
                value={percent}
                aria-label="Upload progress"
                data-testid="upload-progress"
                data-percent={percent}
              />
              <span role="status" data-testid="upload-status">
                {phase.kind === 'uploading'
                  ? `Uploading… ${percent}%`
                  : phase.kind === 'analyzing'
                    ? 'Uploaded 100%, analyzing…'
                    : `${percent}%`}
              </span>
            </div>
          ) : null}
        </form>
        {root === undefined ? null : (
          <form className={styles.card} onSubmit={(event) => void onOpenPath(event)} aria-labelledby="path-title">
            <h2 id="path-title">Open a path on the server</h2>
            <p className="muted">
              A must-gather directory or archive under <code>{root}</code> (absolute, or relative to it).
            </p>
            <div className={styles.row}>
              <label htmlFor="must-gather-path" className="visually-hidden">
                Path on the server
              </label>
              <input
                id="must-gather-path"
                className={styles.pathInput}
                value={path}
                onChange={(event) => setPath(event.target.value)}
                placeholder="must-gather.local.1234"
                disabled={busy}
                spellCheck={false}
                autoComplete="off"
              />
              <button type="submit" className="btn" disabled={busy}>
                Open
              </button>
            </div>
            {phase.kind === 'opening' ? <p role="status">Analyzing…</p> : null}
          </form>
        )}
        {phase.kind === 'error' ? (
          <p role="alert" className={styles.error} data-testid="must-gather-error">
            {phase.message}
          </p>
        ) : null}
      </main>
    </>
  );
}
