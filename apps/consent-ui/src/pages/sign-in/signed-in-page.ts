import { html } from '../../html/html.js';
import { documentPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';

/**
 * GET /ui/login without a pending authorization, from a browser that is signed in: where a
 * plain sign-in lands (docs/hosted-pages.md #5).
 */
export function signedInPage({ links }: Pick<Registry, 'links'>, email: string): PageResult {
  return documentPage(links, 200, {
    title: 'You are signed in',
    content: html`<p>You are signed in as <strong>${email}</strong>.</p>
      <p>You can close this page and go back to the application you were using.</p>`,
  });
}
