import type { AppError } from '@authz/shared/errors';

/**
 * A failure on a hosted page (a rate limit, a service that cannot be reached, a body the page
 * does not take) is shown to a person in a browser: the pages' layout and stylesheet with a
 * human message, never the JSON envelope (docs/hosted-pages.md "Errors the gateway renders").
 * consent-ui cannot draw it, since it may be the service that failed; the gateway keeps this
 * small copy of the layout (consent-ui's `renderDocument`). Nothing from the request is echoed.
 */
export function isHostedPagePath(url: string): boolean {
  return url === '/ui' || url.startsWith('/ui/') || url.startsWith('/ui?');
}

interface ErrorCopy {
  title: string;
  text: string;
}

export function errorPageCopy(error: AppError): ErrorCopy {
  const status = error.statusCode;
  if (status === 429) {
    const wait = error.retryAfterSeconds;
    return {
      title: 'Too many attempts',
      text: `There have been too many attempts in a short time. ${
        wait === undefined ? 'Wait a little' : `Wait ${humanDuration(wait)}`
      } and try again.`,
    };
  }
  if (status === 503 || status === 504) {
    return {
      title: 'Temporarily unavailable',
      text: 'The service is busy or briefly unavailable. Try again in a moment.',
    };
  }
  if (status === 404) return { title: 'Page not found', text: 'There is no page at this address.' };
  if (status === 413)
    return { title: 'Request too large', text: 'The form sent was larger than this service accepts.' };
  if (status === 401 || status === 403) {
    return {
      title: 'Not allowed',
      text: 'This page is not available to you. Go back to the application you came from and start again.',
    };
  }
  if (status >= 400 && status < 500) {
    return {
      title: 'This request is not valid',
      text: 'Go back to the application you came from and start again.',
    };
  }
  return {
    title: 'Something went wrong',
    text: 'An unexpected error stopped this page. Try again; if it keeps happening, tell the operator of this service.',
  };
}

/** "1 second", "45 seconds", "2 minutes" (rounded up), "1 hour". */
export function humanDuration(seconds: number): string {
  const unit = (count: number, name: string) => `${count} ${name}${count === 1 ? '' : 's'}`;
  if (seconds < 60) return unit(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds < 3600) return unit(Math.ceil(seconds / 60), 'minute');
  return unit(Math.ceil(seconds / 3600), 'hour');
}

/**
 * The stylesheet relative to the page, so the link holds under any path prefix an ingress
 * strips before the gateway (the pages' own links carry JWT_ISSUER's path; docs/hosted-pages.md #9).
 */
export function styleSheetHrefFrom(url: string): string {
  // "/ui/login" -> ["ui", "login"]; a trailing slash counts as one more (empty) segment.
  const depth = url.split('?')[0]!.split('/').slice(1).length;
  return depth < 2 ? 'ui/assets/style.css' : `${'../'.repeat(depth - 2)}assets/style.css`;
}

export function renderErrorPage(url: string, error: AppError): string {
  const { title, text } = errorPageCopy(error);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex, nofollow" />
    <title>${title}</title>
    <link rel="stylesheet" href="${styleSheetHrefFrom(url)}" />
  </head>
  <body>
    <main>
      <h1>${title}</h1>
      <p>${text}</p>
    </main>
  </body>
</html>
`;
}
