import type { Page } from '@playwright/test';

export const CAPTION_TEST_ID = 'demo-caption';

/**
 * Shows `text` in a fixed caption bar at the bottom of the page, creating the bar on first use (a full navigation
 * drops it; the next call brings it back). Text only: the caption is set through `textContent`. The bar ignores the
 * pointer so it never intercepts a click the walkthrough makes.
 */
export async function showCaption(page: Page, text: string): Promise<void> {
  await page.evaluate(
    ({ testId, caption }) => {
      let bar = document.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
      if (!bar) {
        bar = document.createElement('div');
        bar.dataset.testid = testId;
        bar.setAttribute('role', 'status');
        bar.setAttribute('aria-live', 'polite');
        bar.setAttribute('aria-label', 'Demo caption');
        Object.assign(bar.style, {
          position: 'fixed',
          left: '50%',
          bottom: '24px',
          transform: 'translateX(-50%)',
          zIndex: '2147483647',
          maxWidth: 'min(90vw, 1100px)',
          padding: '12px 20px',
          borderRadius: '8px',
          pointerEvents: 'none',
          background: 'rgba(15, 23, 42, 0.92)',
          color: '#ffffff',
          font: '600 20px/1.35 system-ui, sans-serif',
          boxShadow: '0 4px 18px rgba(0, 0, 0, 0.35)',
          textAlign: 'center',
        });
        document.body.appendChild(bar);
      }
      bar.textContent = caption;
    },
    { testId: CAPTION_TEST_ID, caption: text },
  );
}

/** Removes the caption bar, if shown. */
export async function hideCaption(page: Page): Promise<void> {
  await page.evaluate((testId) => document.querySelector(`[data-testid="${testId}"]`)?.remove(), CAPTION_TEST_ID);
}
