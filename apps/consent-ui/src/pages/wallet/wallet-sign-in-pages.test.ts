import { SignInStatus } from '@authz/proto/walletbridge/v1/walletbridge';
import { describe, expect, it } from 'vitest';
import { cookiesSet, heading, hiddenField, type RenderedPage } from '../../../test/consent-ui-harness.js';
import { expectHtmlPage } from '../../../test/page-shape.js';
import {
  BINDER,
  HANDLE,
  INVOCATION,
  invocationCookie,
  PRESENTED,
  RESPONSE_CODE,
  useWalletPages,
  withBinder,
} from './test/use-wallet-pages.js';

// Wallet sign-in (interface.md 4.5) and the same-device return; the set-up: test/use-wallet-pages.ts.
const { bridge, ui } = useWalletPages();

/** GET /ui/wallet-login, then its form posted back as the browser would. */
async function startSignIn(): Promise<RenderedPage> {
  const form = await ui.render('GET', '/ui/wallet-login');
  return ui.render('POST', '/ui/wallet-login', {
    cookies: { '__Host-service_login': cookiesSet(form)['__Host-service_login']! },
    form: { csrf_token: hiddenField(form, 'csrf_token')! },
  });
}

describe('wallet sign-in pages', () => {
  it('render as accessible documents without script', async () => {
    expectHtmlPage(await ui.render('GET', '/ui/wallet-login'), 200);
    const started = await startSignIn();
    expectHtmlPage(started, 200);
    expect(started.body).toContain(`<a href="${INVOCATION.replace(/&/g, '&amp;')}" id="open-wallet">`);
    expect(started.body).toContain(
      `<meta http-equiv="refresh" content="3; url=/ui/wallet-login/${HANDLE}/status" />`,
    );
    const cookies = cookiesSet(started);
    expect(cookies['__Host-service_wallet_binder']).toBe(BINDER);
    expect(cookies['__Host-service_wallet_invocation']).toBe(invocationCookie(HANDLE));
    const waiting = await ui.render('GET', `/ui/wallet-login/${HANDLE}`, {
      cookies: withBinder({
        '__Host-service_wallet_invocation': cookies['__Host-service_wallet_invocation']!,
      }),
    });
    expectHtmlPage(waiting, 200);
    expect(waiting.body).toBe(started.body);
    expectHtmlPage(await ui.render('GET', `/ui/wallet-login/${HANDLE}/status`), 400);
  });

  it('shows no QR code for another flow’s invocation cookie', async () => {
    const other = invocationCookie('x'.repeat(43));
    const page = await ui.render('GET', `/ui/wallet-login/${HANDLE}`, {
      cookies: withBinder({ '__Host-service_wallet_invocation': other }),
    });
    expectHtmlPage(page, 200);
    expect(page.body).not.toContain('<img');
    expect(page.body).toContain('Waiting for your wallet to answer.');
  });

  it('shows what was presented, and sets the session only once the confirmation is posted', async () => {
    bridge.signInStatus = SignInStatus.PRESENTED;
    try {
      const login = cookiesSet(await ui.render('GET', '/ui/wallet-login'))['__Host-service_login']!;
      const cookies = withBinder({ '__Host-service_login': login });
      const shown = await ui.render('GET', `/ui/wallet-login/${HANDLE}/status`, { cookies });
      expectHtmlPage(shown, 200);
      expect(heading(shown)).toBe('Is this your wallet credential?');
      expect(shown.body).toContain(`<dd data-presented="issuer">${PRESENTED.issuer}</dd>`);
      expect(shown.body).toContain(`<dd data-presented="email">${PRESENTED.email}</dd>`);
      expect(shown.signedIn).toBeUndefined();
      expect(bridge.reads.at(-1)).toMatchObject({ handle: HANDLE, binder: BINDER });
      const csrfToken = hiddenField(shown, 'csrf_token')!;
      // Without the pre-session, or with a forged token: refused, nothing decided.
      const decided = bridge.decisions.length;
      for (const [jar, token] of [
        [withBinder(), csrfToken],
        [cookies, 'forged'],
      ] as const) {
        const refused = await ui.render('POST', `/ui/wallet-login/${HANDLE}/status`, {
          cookies: jar,
          form: { csrf_token: token, decision: 'confirm' },
        });
        expect(refused.status).toBe(400);
      }
      expect(bridge.decisions).toHaveLength(decided);
      const cancelled = await ui.render('POST', `/ui/wallet-login/${HANDLE}/status`, {
        cookies,
        form: { csrf_token: csrfToken, decision: 'cancel' },
      });
      expectHtmlPage(cancelled, 200);
      expect(heading(cancelled)).toBe('Wallet sign-in cancelled');
      expect(cancelled.signedIn).toBeUndefined();
      const page = await ui.render('POST', `/ui/wallet-login/${HANDLE}/status`, {
        cookies,
        form: { csrf_token: csrfToken, decision: 'confirm' },
      });
      expect(bridge.decisions.at(-1)).toMatchObject({ handle: HANDLE, binder: BINDER, confirm: true });
      expect(page.status).toBe(303);
      expect(page.location).toBe('/ui/login');
      // The gateway sets the session cookie from the outcome; the page clears the rest.
      expect(page.signedIn).toEqual({ sessionToken: 'n'.repeat(64) });
      expect(page.setCookies).toEqual([
        '__Host-service_login=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0',
        '__Host-service_wallet_binder=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0',
        '__Host-service_wallet_invocation=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0',
      ]);
      expect(cookiesSet(page)['__Host-service_session']).toBe('n'.repeat(64));
    } finally {
      bridge.signInStatus = SignInStatus.PENDING;
    }
  });
});

describe('the same-device return', () => {
  it('sends the binder’s browser to the flow’s page once, and refuses anyone else', async () => {
    bridge.redeemable = 'sign_in';
    const query = { response_code: RESPONSE_CODE };
    const stranger = await ui.render('GET', '/ui/wallet-return', { query });
    expectHtmlPage(stranger, 400);
    const back = await ui.render('GET', '/ui/wallet-return', {
      query,
      cookies: withBinder({ '__Host-service_wallet_invocation': invocationCookie(HANDLE, 'p'.repeat(43)) }),
    });
    expect(back.status).toBe(303);
    expect(back.location).toBe(`/ui/wallet-login/${HANDLE}/status?handle=${'p'.repeat(43)}`);
    expectHtmlPage(await ui.render('GET', '/ui/wallet-return', { query, cookies: withBinder() }), 400);
    bridge.redeemable = 'link';
    const link = await ui.render('GET', '/ui/wallet-return', { query, cookies: withBinder() });
    expect(link.location).toBe(`/ui/wallet-link/${HANDLE}`);
  });
});
