import { html } from '../../html/html.js';
import { documentPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';

type Deps = Pick<Registry, 'links'>;

/**
 * docs/federation.md #8: the one page for every failed upstream sign-in or link: a forged or
 * replayed callback, another browser, an upstream error, a bad ID token, an identity that
 * opens no account. It says nothing about which.
 */
export function federationRefusalPage({ links }: Deps, setCookies: string[] = []): PageResult {
  return documentPage(
    links,
    400,
    {
      title: 'Sign-in failed',
      heading: 'The sign-in could not be completed',
      content: html`<p>Nothing was changed. <a href="${links.login()}">Start again</a>.</p>`,
    },
    setCookies,
  );
}

/** The upstream identity belongs to another account: nothing was linked. */
export function federationConflictPage(
  { links, accountLinks }: Pick<Registry, 'links' | 'accountLinks'>,
  setCookies: string[],
): PageResult {
  return documentPage(
    links,
    409,
    {
      title: 'Not linked',
      heading: 'That sign-in is linked to another account',
      content: html`<p>Nothing was linked. <a href="${accountLinks.account()}">Back to your account</a>.</p>`,
    },
    setCookies,
  );
}

/**
 * docs/federation.md #12: linking needs a sign-in within the last 5 minutes; the session is
 * live but older, so the user signs in again and comes back to the account page.
 */
export function federationSignInAgainPage({ links }: Deps): PageResult {
  return documentPage(links, 401, {
    title: 'Sign in again',
    content: html`<p>Linking a sign-in method needs a recent sign-in. Sign in again to go on.</p>
      <p>
        <a href="${links.login()}?next=account">Sign in</a> and you will be brought back to your account.
      </p>`,
  });
}
