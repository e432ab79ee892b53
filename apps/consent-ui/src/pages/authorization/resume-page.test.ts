import { describe, expect, it } from 'vitest';
import { heading, TEST_ORIGIN } from '../../../test/consent-ui-harness.js';
import type { FakePending } from '../../../test/fake-authorization.js';
import { expectHtmlPage } from '../../../test/page-shape.js';
import { useConsentUi } from '../../../test/use-consent-ui.js';

const fixture = useConsentUi();
const alice = fixture.identity.addUser('alice@example.com', 'correct horse battery');
const EXPIRED = 'This sign-in request has expired or was already used';

let handles = 0;
function pendingAuthorization(pending: Partial<FakePending> = {}): string {
  const handle = `pending-${++handles}`;
  fixture.authorization.pending.set(handle, { clientName: 'Acme Notes', scopes: ['openid'], ...pending });
  return handle;
}

describe('GET /ui/resume/{handle}', () => {
  it('passes the session cookie and origin on and follows oauth with a 302; the handle is used', async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const handle = pendingAuthorization();
    const cookies = { '__Host-service_session': session.token };
    const page = await fixture.ui.render('GET', `/ui/resume/${handle}`, { cookies });
    expect(page.status).toBe(302);
    expect(page.location).toBe(`https://issuer.example/ui/consent?handle=c-${handle}`);
    expect(page.body).toBe('');
    expect(page.contentType).toBe('text/html; charset=utf-8');
    expect(fixture.authorization.calls.at(-1)).toEqual({
      rpc: 'resumeAuthorization',
      handle,
      sessionToken: session.token,
      origin: expect.objectContaining(TEST_ORIGIN),
    });

    const again = await fixture.ui.render('GET', `/ui/resume/${handle}`, { cookies });
    expectHtmlPage(again, 400);
    expect(heading(again)).toBe(EXPIRED);
  });

  it('without a session follows oauth back to sign-in', async () => {
    const handle = pendingAuthorization();
    const page = await fixture.ui.render('GET', `/ui/resume/${handle}`);
    expect(page.status).toBe(302);
    expect(page.location).toBe(`https://issuer.example/ui/login?handle=${handle}`);
    expect(fixture.authorization.calls.at(-1)).toEqual({
      rpc: 'resumeAuthorization',
      handle,
      origin: expect.objectContaining(TEST_ORIGIN),
    });
  });

  it('goes straight to the client when oauth says so', async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const redirectTo = 'https://app.example/callback?code=abc&state=s&iss=https%3A%2F%2Fissuer.example';
    const handle = pendingAuthorization({ outcome: { redirectTo } });
    const page = await fixture.ui.render('GET', `/ui/resume/${handle}`, {
      cookies: { '__Host-service_session': session.token },
    });
    expect(page.status).toBe(302);
    expect(page.location).toBe(redirectTo);
  });

  it('shows the authorization error page, never a redirect, when oauth answers one', async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const handle = pendingAuthorization({
      outcome: { errorPage: { error: 'invalid_client', errorDescription: 'The client <was> removed' } },
    });
    const page = await fixture.ui.render('GET', `/ui/resume/${handle}`, {
      cookies: { '__Host-service_session': session.token },
    });
    expectHtmlPage(page, 400);
    expect(page.location).toBeUndefined();
    expect(heading(page)).toBe('This request cannot be completed');
    expect(page.body).toContain('<code>invalid_client</code>');
    expect(page.body).toContain('The client &lt;was&gt; removed');
  });

  it('answers an unknown handle with the expired page', async () => {
    const page = await fixture.ui.render('GET', '/ui/resume/never-issued');
    expectHtmlPage(page, 400);
    expect(heading(page)).toBe(EXPIRED);
  });

  it('decodes a percent-encoded handle', async () => {
    const handle = pendingAuthorization();
    const encoded = handle.replace('-', '%2D');
    const page = await fixture.ui.render('GET', `/ui/resume/${encoded}`);
    expect(page.status).toBe(302);
    expect(fixture.authorization.calls.at(-1)).toMatchObject({ rpc: 'resumeAuthorization', handle });
  });
});
