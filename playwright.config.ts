import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
// `npm run demo -- --headed` sets PW_HEADED for a presenter's visible browser (it needs a display).
const HEADED = process.env.PW_HEADED === '1';
const CHROMIUM_ARGS = [
  ...(HEADED ? [] : ['--headless']),
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  workers: 1,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    video: (process.env.PW_VIDEO as 'on' | 'off' | undefined) ?? 'off',
    screenshot: 'only-on-failure',
    trace: 'off',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: 'demo/**',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
      },
    },
    {
      // Narrated walkthroughs (e2e/demo): plain tests in `npm test`, recorded by `npm run demo` (PW_VIDEO=on, DEMO_OUTPUT).
      name: 'demo',
      testDir: './e2e/demo',
      testMatch: '*.demo.spec.ts',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 720 },
        headless: !HEADED,
        video: process.env.PW_VIDEO === 'on' ? { mode: 'on', size: { width: 1280, height: 720 } } : 'off',
        launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
      },
    },
  ],
  // The demo walkthroughs start their own dashboard; `npm run demo` runs only them and skips this one.
  webServer:
    process.env.PW_DEMO_ONLY === '1'
      ? undefined
      : {
          command: `node --conditions=react-server --import tsx server/cli/start.ts --no-build --xss-probe --port ${PORT}`,
          url: `http://127.0.0.1:${PORT}/api/clusters`,
          reuseExistingServer: false,
          timeout: 120_000,
          env: { NEXT_TELEMETRY_DISABLED: '1' },
        },
});
