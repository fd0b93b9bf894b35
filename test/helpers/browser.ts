/**
 * A real Chromium for the dashboard tests: Debian's `chromium` driven by playwright-core (its own
 * browser download cannot work here). Missing browser: the test fails saying how to install it.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian puts it (override with $CHROMIUM). */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  if (!path || !existsSync(path)) throw new Error('The dashboard tests need Chromium: `apt-get install chromium` (Debian), or set $CHROMIUM to its path.');
  return path;
}

/** Launches a headless Chromium. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}
