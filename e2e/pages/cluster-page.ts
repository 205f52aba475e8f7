import { expect, type Locator, type Page } from '@playwright/test';

/** The cluster page (`/clusters/<id>`). */
export class ClusterPage {
  readonly findings: Locator;
  readonly drawer: Locator;
  readonly streamStatus: Locator;

  constructor(readonly page: Page) {
    this.findings = page.getByTestId('finding');
    this.drawer = page.getByTestId('evidence-drawer');
    this.streamStatus = page.getByTestId('stream-status');
  }

  async goto(id: string, query = ''): Promise<void> {
    await this.page.goto(`/clusters/${id}${query}`);
    await this.expectLoaded();
  }

  async expectLoaded(): Promise<void> {
    await expect(this.page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
    await expect(this.page.getByRole('heading', { level: 2, name: /Findings/ })).toBeVisible();
  }

  /** Findings of one detector, optionally narrowed to severities. */
  findingsOf(detector: string, severities?: readonly string[]): Locator {
    const base = this.page.locator(`[data-testid="finding"][data-detector="${detector}"]`);
    if (!severities) return base;
    return this.page.locator(
      severities.map((s) => `[data-testid="finding"][data-detector="${detector}"][data-severity="${s}"]`).join(', '),
    );
  }

  /** Waits (the embedded scenarios evolve on a virtual clock) until a finding of `detector` with one of `severities` shows. */
  async waitForFinding(detector: string, severities: readonly string[], timeout = 90_000): Promise<Locator> {
    const f = this.findingsOf(detector, severities).first();
    await expect(f).toBeVisible({ timeout });
    return f;
  }

  panel(detector: string): Locator {
    return this.page.getByTestId(`panel-${detector}`);
  }

  chart(detector: string): Locator {
    return this.page.getByTestId(`chart-${detector}`);
  }

  /** A recharts line (or bar) in the detector's chart with a non-empty path. */
  async expectChartDrawn(detector: string, timeout = 60_000): Promise<void> {
    const chart = this.chart(detector);
    await expect(chart).toBeVisible({ timeout });
    await expect
      .poll(
        () =>
          chart
            .locator('path.recharts-line-curve, path.recharts-rectangle')
            .evaluateAll((paths) => paths.filter((p) => (p.getAttribute('d') ?? '').trim().length > 2).length),
        { timeout, message: `chart-${detector} has a drawn line` },
      )
      .toBeGreaterThan(0);
  }

  async openEvidence(finding: Locator): Promise<string> {
    const id = await finding.getAttribute('data-finding-id');
    await finding.getByRole('button', { name: /Evidence/ }).click();
    await expect(this.drawer).toBeVisible();
    await expect(this.drawer).toHaveAttribute('data-finding-id', id ?? '');
    return id ?? '';
  }

  /** The finding with exactly this id. */
  finding(id: string): Locator {
    return this.page.locator(`[data-testid="finding"][data-finding-id="${id}"]`);
  }

  /** Text of the drawer's evidence values, log lines, metric values and excerpts. */
  evidenceText(): Locator {
    return this.drawer.locator('[data-testid="evidence"]');
  }
}
