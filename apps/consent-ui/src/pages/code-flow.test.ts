import { describe, expect, it } from 'vitest';
import { cookiesSet, hiddenField, type RenderedPage } from '../../test/consent-ui-harness.js';
import { useConsentUi } from '../../test/use-consent-ui.js';

// The hosted part of the authorization code flow, page after page, as a browser walks it:
// sign-in form, resume, consent, back to the client. Cookies and Locations are carried by
// hand; the same flow through the real services and the gateway is the gateway's test.
const fixture = useConsentUi();
const alice = fixture.identity.addUser('alice@example.com', 'correct horse battery');

describe('hosted code flow', () => {
  it('signs in, resumes, consents and returns to the client', async () => {
    const { ui, authorization } = fixture;
    authorization.pending.set('flow-1', { clientName: 'Acme Notes', scopes: ['openid', 'email'] });
    const jar: Record<string, string> = {};
    const keep = (page: RenderedPage) => {
      for (const [name, value] of Object.entries(cookiesSet(page))) {
        if (value === '') delete jar[name];
        else jar[name] = value;
      }
    };
    const path = (location: string) => new URL(location, 'https://issuer.example');

    const login = await ui.render('GET', '/ui/login', { query: { handle: 'flow-1' } });
    keep(login);
    const signedIn = await ui.render('POST', '/ui/login', {
      cookies: jar,
      form: {
        handle: hiddenField(login, 'handle')!,
        csrf_token: hiddenField(login, 'csrf_token')!,
        email: alice.email,
        password: alice.password,
      },
    });
    expect(signedIn.status).toBe(303);
    keep(signedIn);
    expect(Object.keys(jar)).toEqual(['__Host-service_session']);

    const resumed = await ui.render('GET', path(signedIn.location!).pathname, { cookies: jar });
    expect(resumed.status).toBe(302);
    const consentUrl = path(resumed.location!);
    const handle = consentUrl.searchParams.get('handle')!;
    const session = fixture.identity.browserSessions.get(jar['__Host-service_session']!)!;
    authorization.prompts.set(handle, {
      sessionToken: session.token,
      clientName: 'Acme Notes',
      scopes: ['openid', 'email'],
      newScopes: ['openid', 'email'],
      redirectUri: 'https://app.example/callback',
      state: 'state-1',
    });

    const consent = await ui.render('GET', consentUrl.pathname, { query: { handle }, cookies: jar });
    expect(consent.status).toBe(200);
    const decided = await ui.render('POST', '/ui/consent', {
      cookies: jar,
      form: {
        handle: hiddenField(consent, 'handle')!,
        csrf_token: hiddenField(consent, 'csrf_token')!,
        decision: 'allow',
      },
    });
    expect(decided.status).toBe(303);
    const back = new URL(decided.location!);
    expect(back.origin + back.pathname).toBe('https://app.example/callback');
    expect(back.searchParams.get('state')).toBe('state-1');
    expect(back.searchParams.get('code')).toEqual(expect.any(String));
  });
});
