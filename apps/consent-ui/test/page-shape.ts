import type { Page } from '@authz/proto/consentui/v1/consentui';
import { expect } from 'vitest';

/**
 * What every hosted HTML page must be (interface.md 4.5, the gateway's CSP): a complete English
 * document with a title and one <h1>, the external stylesheet only, no inline script, style
 * or event handler, every visible input labelled. Script only from our own assets, only on
 * pages that tell the gateway so (docs/strong-authentication.md #20).
 */
export function expectHtmlPage(page: Page, status: number): void {
  expect(page.status).toBe(status);
  expect(page.contentType).toBe('text/html; charset=utf-8');
  const body = page.body;
  expect(body.startsWith('<!doctype html>')).toBe(true);
  expect(body).toContain('<html lang="en">');
  expect(body).toMatch(/<title>[^<]+<\/title>/);
  expect(body.match(/<h1[\s>]/g)).toHaveLength(1);
  expect(body).toMatch(/<link rel="stylesheet" href="[^"]*\/ui\/assets\/style\.css\?v=[0-9a-f]{16}" \/>/);
  const scripts = body.match(/<script\b[^>]*>/gi) ?? [];
  for (const script of scripts) {
    expect(script).toMatch(
      /^<script src="[^"]*\/ui\/assets\/(webauthn|passkeys)\.js\?v=[0-9a-f]{16}" defer>$/,
    );
  }
  expect(page.sameOriginScripts).toBe(scripts.length > 0);
  const withoutScriptTags = body.replace(/<script src="[^"]*" defer><\/script>/g, '');
  expect(withoutScriptTags).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=|javascript:/i);
  for (const [input] of body.matchAll(/<input\b[^>]*>/g)) {
    if (/type="hidden"/.test(input)) continue;
    const id = /\sid="([^"]+)"/.exec(input)?.[1];
    expect(id, input).toBeDefined();
    expect(body).toContain(`<label for="${id}">`);
    expect(input).toMatch(/\sautocomplete="[a-z-]+( webauthn)?"/);
  }
}
