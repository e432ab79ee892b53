import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface PageScript {
  js: string;
  /** Part of the script's URL, so a new build is fetched despite caching (as the style sheet's). */
  version: string;
}

export interface PageScripts {
  /** @simplewebauthn/browser's browser bundle (global SimpleWebAuthnBrowser), served from our origin. */
  webauthn: PageScript;
  /** Ours: drives the passkey ceremonies of the sign-in and account pages. */
  passkeys: PageScript;
}

function script(js: string): PageScript {
  return { js, version: createHash('sha256').update(js).digest('hex').slice(0, 16) };
}

let loaded: PageScripts | undefined;

/** Read once, on first use: the package's exports map does not name the bundle, so it is found beside its entry. */
export function pageScripts(): PageScripts {
  if (!loaded) {
    const entry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
    const bundle = join(dirname(entry), '..', 'dist', 'bundle', 'index.umd.min.js');
    loaded = {
      webauthn: script(readFileSync(bundle, 'utf8')),
      passkeys: script(readFileSync(new URL('./passkeys.js', import.meta.url), 'utf8')),
    };
  }
  return loaded;
}
