'use client';
import { useEffect, useRef, useState } from 'react';

/**
 * Copies `text` with the async Clipboard API and shows "Copied" (or "Copy failed") for a few seconds, announced
 * to screen readers through a live region.
 */
export function CopyButton({
  text,
  label = 'Copy',
  describedBy,
}: {
  /** The text, or a function reading it at click time (e.g. the current URL). */
  text: string | (() => string);
  label?: string;
  describedBy?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(typeof text === 'function' ? text() : text);
      setState('copied');
    } catch {
      setState('failed');
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), 2500);
  };

  return (
    <span className="copy">
      <button
        type="button"
        className="btn btn-small"
        onClick={() => void copy()}
        aria-describedby={describedBy}
        data-testid="copy-button"
      >
        {label}
      </button>
      <span role="status" className="copy-status" data-state={state}>
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed — select the text instead' : ''}
      </span>
    </span>
  );
}
