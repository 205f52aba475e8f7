'use client';
import { useCallback, useEffect, useState } from 'react';

export type Theme = 'light' | 'dark';
const STORAGE_KEY = 'update-health-theme';

function systemTheme(): Theme {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function storedTheme(): Theme | null {
  try {
    const v = window.localStorage.getItem(STORAGE_KEY);
    return v === 'light' || v === 'dark' ? v : null;
  } catch {
    return null;
  }
}

/**
 * The active theme: the one stored in localStorage, else the system preference. Applied as `data-theme` on <html>
 * (the CSS variables in globals.css key off it). `theme` is null until mounted, so server and client render alike.
 */
export function useTheme(): { theme: Theme | null; toggle: () => void } {
  const [theme, setTheme] = useState<Theme | null>(null);

  useEffect(() => {
    const apply = (): void => {
      const t = storedTheme() ?? systemTheme();
      document.documentElement.dataset.theme = t;
      setTheme(t);
    };
    apply();
    const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
    // Follow the system only while the user has not chosen explicitly.
    const onChange = (): void => {
      if (!storedTheme()) apply();
    };
    mq?.addEventListener('change', onChange);
    return () => mq?.removeEventListener('change', onChange);
  }, []);

  const toggle = useCallback(() => {
    setTheme((cur) => {
      const next: Theme = (cur ?? systemTheme()) === 'dark' ? 'light' : 'dark';
      document.documentElement.dataset.theme = next;
      try {
        window.localStorage.setItem(STORAGE_KEY, next);
      } catch {
        // Private mode: the choice lasts for this page only.
      }
      return next;
    });
  }, []);

  return { theme, toggle };
}
