import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, headless, for the page tests: no sandbox (CI runs as root), and none of the background
 * traffic (component updates, sync, QUIC probes) that would reach for the network. `extraArgs` adds switches
 * (for example {@link FAKE_MEDIA_ARGS}).
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}

/**
 * Chromium's fake camera and microphone (a test pattern and a beep), granted without a prompt; with
 * `--use-file-for-fake-audio-capture=<wav>` added, the microphone plays that file instead.
 */
export const FAKE_MEDIA_ARGS = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] as const;
