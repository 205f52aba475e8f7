/** Series colours readable on both the light and the dark panel background (≥ 3:1 against each). */
export const SERIES_COLORS = ['#3b82f6', '#e8590c', '#2f9e44', '#ae3ec9', '#c92a2a', '#0c8599'] as const;

/** Reference-line colours by severity. */
export const THRESHOLD_COLORS = { warning: '#d08c00', critical: '#e03131' } as const;
