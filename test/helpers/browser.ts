import { type Browser, chromium } from 'playwright-core';

const { PESAKIT_CHROMIUM } = process.env;

/**
 * Where Debian's `chromium` package puts the browser (`apt-get install -y chromium`).
 * Override with PESAKIT_CHROMIUM on machines that keep it elsewhere.
 */
export const chromiumPath = PESAKIT_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Launches headless Chromium for the hosted-checkout tests. Playwright gives every launch a
 * fresh temporary profile (the `--user-data-dir` equivalent), so no cookie or cache leaks
 * between runs. The flags keep Chromium off the network except for what a test asks for:
 * no QUIC, no background fetches, no component updates, no sync, no proxy.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-proxy-server',
    ],
  });
}
