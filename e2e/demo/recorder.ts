import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { showCaption } from './caption';

/** One narrated step; `screenshot` is the PNG's file name inside the scenario's output directory when recording. */
export interface DemoStep {
  caption: string;
  screenshot?: string;
}

/** What a recorded walkthrough leaves in `<DEMO_OUTPUT>/<scenario>/steps.json` for `npm run demo` to collect. */
export interface DemoManifest {
  scenario: string;
  title: string;
  /** Playwright's output directory of the test, where its video lands once the page closes. */
  resultsDir: string;
  steps: DemoStep[];
}

export const MANIFEST_FILE = 'steps.json';

/** The demo output directory when recording (`DEMO_OUTPUT`), otherwise undefined. */
export function demoOutputDir(): string | undefined {
  return process.env.DEMO_OUTPUT ? resolve(process.env.DEMO_OUTPUT) : undefined;
}

function slug(caption: string): string {
  return (
    caption
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'step'
  );
}

/**
 * Narrates one scenario: each step shows its caption on the page. When recording it also holds the frame for a
 * beat (so the video can be followed) and takes a numbered screenshot; otherwise it costs nothing but the caption.
 */
export class DemoRecorder {
  private readonly steps: DemoStep[] = [];
  private readonly dir: string | undefined;

  constructor(
    private readonly page: Page,
    readonly scenario: string,
    private readonly title: string,
    outputDir = demoOutputDir(),
    private readonly beatMs = Number(process.env.DEMO_BEAT_MS ?? 1800),
  ) {
    this.dir = outputDir ? join(outputDir, scenario) : undefined;
    if (this.dir) mkdirSync(this.dir, { recursive: true });
  }

  get recording(): boolean {
    return this.dir !== undefined;
  }

  async step(caption: string): Promise<void> {
    await showCaption(this.page, caption);
    if (!this.dir) {
      this.steps.push({ caption });
      return;
    }
    // Let late layout (charts, fonts) settle into the frame the viewer reads.
    await this.page.waitForTimeout(this.beatMs / 2);
    const screenshot = `${String(this.steps.length + 1).padStart(2, '0')}-${slug(caption)}.png`;
    await this.page.screenshot({ path: join(this.dir, screenshot) });
    this.steps.push({ caption, screenshot });
    await this.page.waitForTimeout(this.beatMs / 2);
  }

  /** Writes the manifest (recording only). */
  finish(testInfo: TestInfo): void {
    if (!this.dir) return;
    const manifest: DemoManifest = {
      scenario: this.scenario,
      title: this.title,
      resultsDir: testInfo.outputDir,
      steps: this.steps,
    };
    writeFileSync(join(this.dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  }
}
