import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { expect } from 'vitest';
import type { BrowserResponse } from '@authz/shared/testing/form-browser';

/** What a wallet waiting screen shows (consent-ui wallet-waiting-page.ts), read from its HTML. */
export interface WaitingScreen {
  /** The QR image's data URI, when shown. */
  qrCode: string | undefined;
  /** The text the QR code decodes to. */
  qrText: string | undefined;
  /** The "open your wallet app" link. */
  deepLink: string | undefined;
  /** The text field to copy. */
  copyText: string | undefined;
  /** The meta refresh: seconds and absolute URL. */
  refresh: { seconds: number; url: string };
}

/** Reads a waiting screen; fails the test when the page is not one. */
export function readWaitingScreen(page: BrowserResponse, pageUrl: string): WaitingScreen {
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const refresh = /<meta http-equiv="refresh" content="(\d+); url=([^"]+)" \/>/.exec(page.text);
  expect(refresh, 'a waiting screen reloads itself').not.toBeNull();
  const qrCode = /<img\s+src="(data:image\/png;base64,[A-Za-z0-9+/=]+)"/.exec(page.text)?.[1];
  const deepLink = /<a href="([^"]+)" id="open-wallet">/.exec(page.text)?.[1];
  const copyText = /<input id="invocation-uri" type="text" value="([^"]+)"/.exec(page.text)?.[1];
  return {
    qrCode,
    qrText: qrCode === undefined ? undefined : decodeQrCode(qrCode),
    deepLink: deepLink === undefined ? undefined : unescapeHtml(deepLink),
    copyText: copyText === undefined ? undefined : unescapeHtml(copyText),
    refresh: { seconds: Number(refresh![1]), url: new URL(unescapeHtml(refresh![2]!), pageUrl).toString() },
  };
}

/** Decodes the QR code of a PNG data URI as a phone camera would read the image. */
export function decodeQrCode(dataUri: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(dataUri.slice(dataUri.indexOf(',') + 1), 'base64'));
  // jsqr is CommonJS: Node's default import is its module.exports, which carries `default` too.
  return jsQR.default(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The flow handle an invocation URI points at (interface.md 4.9 /oid4vp/request/{handle}). */
export function handleOf(invocationUri: string): string {
  const requestUri = new URL(invocationUri).searchParams.get('request_uri') ?? '';
  return requestUri.slice(requestUri.lastIndexOf('/') + 1);
}

/** The text of the page's <h1>, whitespace collapsed. */
export function headingOf(page: BrowserResponse): string | undefined {
  return /<h1>([\s\S]*?)<\/h1>/.exec(page.text)?.[1]?.replace(/\s+/g, ' ').trim();
}
