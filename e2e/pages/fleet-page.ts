import { expect, type Locator, type Page } from '@playwright/test';

/** The fleet page (`/`). */
export class FleetPage {
  readonly table: Locator;
  readonly filter: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByTestId('fleet-table');
    this.filter = page.getByLabel('Filter clusters');
    this.rows = this.table.getByTestId('cluster-row');
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/${query}`);
    await expect(this.page.getByRole('heading', { level: 1, name: 'Fleet' })).toBeVisible();
    await expect(this.rows.first()).toBeVisible({ timeout: 30_000 });
  }

  row(id: string): Locator {
    return this.table.locator(`[data-testid="cluster-row"][data-cluster-id="${id}"]`);
  }

  async rowIds(): Promise<string[]> {
    return this.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-cluster-id') ?? ''));
  }

  /** Names of the top-level rows (management clusters group their hosted clusters under them). */
  async topLevelNames(): Promise<string[]> {
    return this.rows.evaluateAll((rows) =>
      rows.filter((r) => r.getAttribute('data-depth') === '0').map((r) => r.getAttribute('data-cluster-name') ?? ''),
    );
  }

  sortButton(column: string): Locator {
    return this.table.getByRole('button', { name: new RegExp(`^${column}`) });
  }

  async openCluster(id: string): Promise<void> {
    await this.row(id).getByRole('link').click();
    await expect(this.page).toHaveURL(new RegExp(`/clusters/${id}(\\?|$)`));
  }
}
