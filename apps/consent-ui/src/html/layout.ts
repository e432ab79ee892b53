import { html, type HtmlValue, type SafeHtml } from './html.js';

export interface DocumentParts {
  /** The <title>, and the page's one <h1> unless `heading` differs. */
  title: string;
  heading?: string;
  content: HtmlValue;
  styleSheetHref: string;
  /** Reload to `url` after `seconds`: how a waiting page polls without script. */
  refresh?: { seconds: number; url: string };
  /**
   * Same-origin scripts, deferred: only the WebAuthn ceremonies use script (docs/strong-authentication.md #20);
   * the page works without them.
   */
  scripts?: string[];
}

/**
 * Every hosted page: a complete document with a language, a title, one <h1> inside <main>,
 * and the external stylesheet only, so the CSP (default-src 'none'; style-src 'self') holds
 * with no inline script or style and the pages work without JavaScript.
 */
export function renderDocument({
  title,
  heading = title,
  content,
  styleSheetHref,
  refresh,
  scripts = [],
}: DocumentParts): SafeHtml {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        ${refresh && html`<meta http-equiv="refresh" content="${refresh.seconds}; url=${refresh.url}" />`}
        <title>${title}</title>
        <link rel="stylesheet" href="${styleSheetHref}" />
        ${scripts.map((src) => html`<script src="${src}" defer></script>`)}
      </head>
      <body>
        <main>
          <h1>${heading}</h1>
          ${content}
        </main>
      </body>
    </html> `;
}
