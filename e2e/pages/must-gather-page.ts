import { expect, type Locator, type Page } from '@playwright/test';

/** The must-gather page (`/must-gather`) and the result it opens (`/must-gather/<id>`). */
export class MustGatherPage {
  readonly fileInput: Locator;
  readonly uploadButton: Locator;
  readonly progress: Locator;
  readonly pathInput: Locator;
  readonly error: Locator;
  readonly source: Locator;

  constructor(readonly page: Page) {
    this.fileInput = page.getByTestId('must-gather-file');
    this.uploadButton = page.getByRole('button', { name: 'Upload and analyze' });
    this.progress = page.getByTestId('upload-progress');
    this.pathInput = page.getByRole('textbox', { name: 'Path on the server' });
    this.error = page.getByTestId('must-gather-error');
    this.source = page.getByTestId('data-source');
  }

  async goto(): Promise<void> {
    await this.page.goto('/must-gather');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Analyze a must-gather' })).toBeVisible();
  }

  /**
   * Records the highest upload percentage the progress bar shows (it can pass quickly on loopback, and the page
   * navigates away once the analysis is done). Call before uploading; read with {@link maxProgress}.
   */
  async watchProgress(): Promise<void> {
    await this.page.evaluate(() => {
      const w = window as unknown as { __maxUploadPercent: number };
      w.__maxUploadPercent = -1;
      const record = () => {
        const bar = document.querySelector('[data-testid="upload-progress"]');
        if (bar) w.__maxUploadPercent = Math.max(w.__maxUploadPercent, Number(bar.getAttribute('data-percent')));
      };
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-percent'],
      });
    });
  }

  maxProgress(): Promise<number> {
    return this.page.evaluate(() => (window as unknown as { __maxUploadPercent: number }).__maxUploadPercent);
  }

  async upload(path: string): Promise<void> {
    await this.fileInput.setInputFiles(path);
    await this.uploadButton.click();
  }

  async openPath(path: string): Promise<void> {
    await this.pathInput.fill(path);
    await this.page.getByRole('button', { name: 'Open', exact: true }).click();
  }

  /** Waits for the result page (the normal cluster view, marked as must-gather data). */
  async expectResult(): Promise<void> {
    await expect(this.page).toHaveURL(/\/must-gather\/[A-Za-z0-9_-]{22}$/, { timeout: 30_000 });
    await expect(this.source).toHaveAttribute('data-source', 'must-gather');
    await expect(this.page.getByRole('heading', { level: 2, name: /Findings/ })).toBeVisible();
  }
}
