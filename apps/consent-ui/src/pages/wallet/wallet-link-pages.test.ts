import { LinkStatus } from '@authz/proto/walletbridge/v1/walletbridge';
import { describe, expect, it } from 'vitest';
import { heading, hiddenField } from '../../../test/consent-ui-harness.js';
import { expectHtmlPage } from '../../../test/page-shape.js';
import {
  BINDER,
  HANDLE,
  PRESENTED,
  SESSION,
  signedIn,
  useWalletPages,
  withBinder,
} from './test/use-wallet-pages.js';

// Wallet linking (interface.md 4.5); the set-up: test/use-wallet-pages.ts.
const { bridge, identityState, ui } = useWalletPages();

describe('wallet link pages', () => {
  it('ask for a new sign-in when the session’s is older than 5 minutes', async () => {
    identityState.signedInSecondsAgo = 301;
    try {
      const page = await ui.render('GET', '/ui/wallet-link', { cookies: signedIn });
      expectHtmlPage(page, 401);
      expect(heading(page)).toBe('Sign in again');
      expect(page.body).toContain('<a href="/ui/login?next=wallet-link">Sign in</a>');
    } finally {
      identityState.signedInSecondsAgo = 10;
    }
  });

  it('show what was presented, and post the decision with the session’s CSRF token', async () => {
    bridge.link = { status: LinkStatus.PRESENTED, presented: PRESENTED };
    try {
      const page = await ui.render('GET', `/ui/wallet-link/${HANDLE}`, { cookies: withBinder(signedIn) });
      expectHtmlPage(page, 200);
      expect(heading(page)).toBe('Is this your wallet credential?');
      expect(page.body).toContain(`<dd data-presented="email">${PRESENTED.email}</dd>`);
      expect(hiddenField(page, 'csrf_token')).toBe(SESSION.csrfToken);
      const linked = await ui.render('POST', `/ui/wallet-link/${HANDLE}`, {
        cookies: withBinder(signedIn),
        form: { csrf_token: SESSION.csrfToken, decision: 'confirm' },
      });
      expect(heading(linked)).toBe('Wallet linked');
      expect(bridge.decisions.at(-1)).toMatchObject({ handle: HANDLE, binder: BINDER, confirm: true });
      const forged = await ui.render('POST', `/ui/wallet-link/${HANDLE}`, {
        cookies: withBinder(signedIn),
        form: { csrf_token: 'x', decision: 'cancel' },
      });
      expect(forged.status).toBe(400);
    } finally {
      bridge.link = { status: LinkStatus.PENDING };
    }
  });

  it('pass the session cookie and the form’s CSRF token to StartLink', async () => {
    const confirmation = await ui.render('GET', '/ui/wallet-link', { cookies: signedIn });
    expectHtmlPage(confirmation, 200);
    expect(hiddenField(confirmation, 'csrf_token')).toBe(SESSION.csrfToken);
    const started = await ui.render('POST', '/ui/wallet-link', {
      cookies: signedIn,
      form: { csrf_token: SESSION.csrfToken },
    });
    expectHtmlPage(started, 200);
    expect(bridge.starts.at(-1)).toMatchObject({ sessionToken: SESSION.token, csrfToken: SESSION.csrfToken });
    const forged = await ui.render('POST', '/ui/wallet-link', {
      cookies: signedIn,
      form: { csrf_token: 'x' },
    });
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.body)).toEqual({
      error: 'invalid_csrf_token',
      statusCode: 400,
      code: 'INVALID_CSRF_TOKEN',
    });
  });

  it.each([
    [LinkStatus.LINKED, 'Wallet linked', 'linked'],
    [LinkStatus.CONFLICT, 'Wallet already linked', 'conflict'],
    [LinkStatus.EXPIRED, 'Request expired', 'expired'],
    [LinkStatus.REJECTED, 'Wallet not accepted', 'rejected'],
    [LinkStatus.CANCELLED, 'Linking cancelled', 'cancelled'],
  ])('show status %s in plain words, the message escaped', async (status, title, name) => {
    bridge.link = { status, message: 'Said <b>plainly</b> & "escaped"' };
    try {
      const page = await ui.render('GET', `/ui/wallet-link/${HANDLE}`, { cookies: withBinder(signedIn) });
      expectHtmlPage(page, 200);
      expect(heading(page)).toBe(title);
      expect(page.body).toContain(
        `<p role="status" data-status="${name}">Said &lt;b&gt;plainly&lt;/b&gt; &amp; &quot;escaped&quot;</p>`,
      );
      expect(page.body).not.toContain('http-equiv="refresh"');
    } finally {
      bridge.link = { status: LinkStatus.PENDING };
    }
  });

  it('show the uniform refusal without the binder cookie, and ask a signed-out browser to sign in', async () => {
    const refused = await ui.render('GET', `/ui/wallet-link/${HANDLE}`, { cookies: signedIn });
    expectHtmlPage(refused, 400);
    expect(heading(refused)).toBe('This wallet request cannot be used');
    const foreign = await ui.render('GET', `/ui/wallet-link/${'x'.repeat(43)}`, {
      cookies: withBinder(signedIn),
    });
    expect(foreign.body).toBe(refused.body);
    expectHtmlPage(await ui.render('GET', `/ui/wallet-link/${HANDLE}`, { cookies: withBinder() }), 401);
    expectHtmlPage(await ui.render('GET', '/ui/wallet-link'), 401);
  });
});
