import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (installed by .ci/run); playwright-core never downloads a browser. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where browser tests save screenshots: kept by CI as test artifacts, ignored by git. */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

export async function launchChromium(): Promise<Browser> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // Chromium's sandbox refuses to run as root, which CI machines do.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}
