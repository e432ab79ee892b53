import { pageScripts } from '../../html/page-scripts.js';
import type { PageResult } from '../shared/page-result.js';

const JS_CONTENT_TYPE = 'text/javascript; charset=utf-8';

/** GET /ui/assets/webauthn.js: @simplewebauthn/browser's bundle, from our own origin (CSP script-src 'self'). */
export async function showWebauthnScript(): Promise<PageResult> {
  return { status: 200, contentType: JS_CONTENT_TYPE, body: pageScripts().webauthn.js, setCookies: [] };
}

/** GET /ui/assets/passkeys.js: the ceremonies of the sign-in and account pages. */
export async function showPasskeyScript(): Promise<PageResult> {
  return { status: 200, contentType: JS_CONTENT_TYPE, body: pageScripts().passkeys.js, setCookies: [] };
}
