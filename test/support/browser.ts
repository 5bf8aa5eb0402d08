import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { WAIT_MS } from './progress.js';

/**
 * Debian's two builds of Chromium. The headless shell (`apt-get install chromium-headless-shell`, the build
 * Playwright itself runs headless) is the same Blink and V8 without the desktop browser around them: on the
 * page files it used 40 to 65 % less CPU than `chromium --headless` (docs/testing.md). The full browser is
 * for what the shell leaves out: a permission request a person can refuse (the shell answers every
 * microphone request it cannot grant with NotSupportedError).
 */
const BINARIES = { shell: '/usr/bin/chromium-headless-shell', full: '/usr/bin/chromium' } as const;

/**
 * Headless Chromium for the page tests: no sandbox (CI runs as root), and none of the background traffic
 * (component updates, sync, QUIC probes) that would reach for the network. `extraArgs` adds switches (for
 * example {@link FAKE_MEDIA_ARGS}).
 */
export async function launchChromium(extraArgs: readonly string[] = [], build: keyof typeof BINARIES = 'shell'): Promise<Browser> {
  const executablePath = BINARIES[build];
  if (!existsSync(executablePath)) {
    const pkg = build === 'shell' ? 'chromium-headless-shell' : 'chromium';
    throw new Error(`${executablePath} is missing: the page tests need Debian's ${pkg} (apt-get install ${pkg})`);
  }
  const browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
  // Every page's waits (clicks, selectors, functions) bound a stall, not a pace: Playwright's own default is 30 s.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(WAIT_MS);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.context().setDefaultTimeout(WAIT_MS);
    return page;
  };
  return browser;
}

/**
 * Chromium's fake camera and microphone (a test pattern and a beep), granted without a prompt; with
 * `--use-file-for-fake-audio-capture=<wav>` added, the microphone plays that file instead.
 */
export const FAKE_MEDIA_ARGS = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] as const;
