import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, headless, for the page tests: no sandbox (CI runs as root), and none of the background
 * traffic (component updates, sync, QUIC probes) that would reach for the network.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
