'use client';
import { useEffect, useState } from 'react';

/** The browser clock, re-read every `intervalMs` so relative times ("3m ago") stay current. */
export function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}
