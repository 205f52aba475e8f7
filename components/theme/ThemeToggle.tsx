'use client';
import { useTheme } from './use-theme';

/** A button switching light/dark; `aria-pressed` tells whether the dark theme is on. */
export function ThemeToggle() {
  const { theme, toggle } = useTheme();
  return (
    <button type="button" className="btn" onClick={toggle} aria-pressed={theme === 'dark'} data-testid="theme-toggle">
      Dark theme
    </button>
  );
}
