import { describe, expect, it } from 'vitest';
import { heading, hiddenField, TEST_ORIGIN } from '../../../test/consent-ui-harness.js';
import type { FakePrompt } from '../../../test/fake-authorization.js';
import type { FakeBrowserSession } from '@authz/shared/testing/fake-identity';
import { expectHtmlPage } from '../../../test/page-shape.js';
import { useConsentUi } from '../../../test/use-consent-ui.js';

const fixture = useConsentUi();
const alice = fixture.identity.addUser('alice@example.com', 'correct horse battery');
const bob = fixture.identity.addUser('bob@example.com', 'another horse battery');
const EXPIRED = 'This sign-in request has expired or was already used';
const CSRF_BODY = { error: 'invalid_csrf_token', statusCode: 400, code: 'INVALID_CSRF_TOKEN' };

let handles = 0;
function consentPrompt(session: FakeBrowserSession, prompt: Partial<FakePrompt> = {}): string {
  const handle = `consent-${++handles}`;
  fixture.authorization.prompts.set(handle, {
    sessionToken: session.token,
    clientName: 'Acme Notes',
    scopes: ['openid', 'email'],
    newScopes: ['openid', 'email'],
    redirectUri: 'https://app.example/callback',
    state: 'xyz',
    ...prompt,
  });
  return handle;
}

const withSession = (session: FakeBrowserSession) => ({ '__Host-service_session': session.token });

describe('GET /ui/consent', () => {
  it('asks for a session: no cookie, or one that signs nobody in, is the 401 page', async () => {
    const jars: Record<string, string>[] = [{}, { '__Host-service_session': 'e'.repeat(64) }];
    for (const cookies of jars) {
      const page = await fixture.ui.render('GET', '/ui/consent', { query: { handle: 'consent-x' }, cookies });
      expectHtmlPage(page, 401);
      expect(heading(page)).toBe('You are not signed in');
      expect(page.body).toContain('<a href="/ui/login">Sign in</a>');
    }
  });

  it('shows the client, the scopes in plain words with the new ones marked, and the two buttons', async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const handle = consentPrompt(session, {
      clientName: 'Acme <Notes>',
      scopes: ['openid', 'profile', 'email', 'offline_access', 'notes:<write>'],
      newScopes: ['email', 'notes:<write>'],
    });
    const page = await fixture.ui.render('GET', '/ui/consent', {
      query: { handle },
      cookies: withSession(session),
    });
    expectHtmlPage(page, 200);
    expect(heading(page)).toBe('Allow Acme &lt;Notes&gt; to access your account?');
    expect(page.body).toContain('Signed in as <strong>alice@example.com</strong>');
    const items = [...page.body.matchAll(/<li>([\s\S]*?)<\/li>/g)].map(([, item]) =>
      item!
        .replace(/<[^>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    expect(items).toEqual([
      'Confirm your identity',
      // Alice has set no name, so none is promised (interface.md 4.10).
      'Your profile (you have not set a name)',
      'Your email address New',
      'Stay signed in and keep access while you are away',
      'notes:&lt;write&gt; New',
    ]);
    expect(page.body).toContain('<form method="post" action="/ui/consent">');
    expect(hiddenField(page, 'handle')).toBe(handle);
    expect(hiddenField(page, 'csrf_token')).toBe(session.csrfToken);
    expect(page.body).toMatch(
      /<button type="submit" name="decision" value="allow" class="primary">Allow<\/button>/,
    );
    expect(page.body).toMatch(
      /<button type="submit" name="decision" value="deny" class="secondary">Deny<\/button>/,
    );
    expect(page.body.match(/<button /g)).toHaveLength(2);
    // Either decision is redirected on to the client: the gateway lets form-action reach it.
    expect(page.formActionOrigins).toEqual(['https://app.example']);
    // Showing the prompt consumes nothing.
    expect(fixture.authorization.prompts.has(handle)).toBe(true);
  });

  it('says so when the client asks for no scope', async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const handle = consentPrompt(session, { scopes: [], newScopes: [] });
    const page = await fixture.ui.render('GET', '/ui/consent', {
      query: { handle },
      cookies: withSession(session),
    });
    expectHtmlPage(page, 200);
    expect(page.body).not.toContain('<ul');
    expect(page.body).toContain('Acme Notes is asking to sign you in, with no access to your information.');
  });

  it('names the host the browser goes back to and the resources asked for (docs/hosted-pages.md #24)', async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const handle = consentPrompt(session, {
      redirectUri: 'https://app.example:8443/callback',
      resources: ['https://api.example/<calendar>', 'https://files.example/'],
    });
    const page = await fixture.ui.render('GET', '/ui/consent', {
      query: { handle },
      cookies: withSession(session),
    });
    expectHtmlPage(page, 200);
    expect(heading(page)).toBe('Allow Acme Notes to access your account?');
    expect(page.body).not.toContain('nverified');
    expect(page.body).toMatch(
      /<p>The access is only for:<\/p>\s*<ul class="resources">\s*<li><code>https:\/\/api\.example\/&lt;calendar&gt;<\/code><\/li>\s*<li><code>https:\/\/files\.example\/<\/code><\/li>\s*<\/ul>/,
    );
    expect(page.body).toContain('<p>After you choose, you go back to <strong>app.example:8443</strong>.</p>');
  });

  it.each([
    ['dynamic', 'https://client-1', 'a name it chose when it registered here;'],
    [
      'cimd',
      'https://docs.example/app.json',
      'a name it chose in its metadata document at <strong>docs.example</strong>;',
    ],
    ['', 'client-1', 'a name it chose when it registered here;'],
  ])(
    'calls a client of source %j an unverified app, quoting its name as its own',
    async (source, clientId, where) => {
      const session = fixture.identity.openBrowserSession(alice);
      const handle = consentPrompt(session, {
        clientName: 'Google <Drive>',
        clientSource: source,
        clientId,
        scopes: [],
        newScopes: [],
      });
      const page = await fixture.ui.render('GET', '/ui/consent', {
        query: { handle },
        cookies: withSession(session),
      });
      expectHtmlPage(page, 200);
      expect(heading(page)).toBe('Allow an unverified app to access your account?');
      const notice = /<p class="notice">([\s\S]*?)<\/p>/.exec(page.body)?.[1]?.replace(/\s+/g, ' ').trim();
      expect(notice).toBe(
        `<strong>Unverified app.</strong> It calls itself “Google &lt;Drive&gt;”, ${where} ` +
          'nobody has checked who runs it. Allow only if you trust <strong>app.example</strong>.',
      );
      expect(page.body).toContain('It is asking to sign you in, with no access to your information.');
      expect(page.body).not.toContain('Allow Google');
    },
  );

  it("answers an unknown handle, a missing one and another user's with the expired page", async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const bobs = consentPrompt(fixture.identity.openBrowserSession(bob));
    const queries: Record<string, string>[] = [{ handle: 'never-issued' }, {}, { handle: bobs }];
    for (const query of queries) {
      const page = await fixture.ui.render('GET', '/ui/consent', { query, cookies: withSession(session) });
      expectHtmlPage(page, 400);
      expect(heading(page)).toBe(EXPIRED);
    }
  });
});

describe('POST /ui/consent', () => {
  const decide = (session: FakeBrowserSession | undefined, form: Record<string, string>) =>
    fixture.ui.render('POST', '/ui/consent', { form, cookies: session ? withSession(session) : {} });

  it('Allow: oauth issues a code and the browser goes back to the client', async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const handle = consentPrompt(session);
    const page = await decide(session, { handle, csrf_token: session.csrfToken, decision: 'allow' });
    expect(page.status).toBe(303);
    const target = new URL(page.location!);
    expect(target.origin + target.pathname).toBe('https://app.example/callback');
    expect(target.searchParams.get('code')).toMatch(/^[0-9a-f]{32}$/);
    expect(target.searchParams.get('state')).toBe('xyz');
    expect(target.searchParams.get('iss')).toBe('https://issuer.example');
    expect(page.setCookies).toEqual([]);
    expect(fixture.authorization.calls.at(-1)).toEqual({
      rpc: 'decideConsent',
      handle,
      sessionToken: session.token,
      allow: true,
      origin: expect.objectContaining(TEST_ORIGIN),
    });
  });

  it('Deny: the browser goes back with access_denied', async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const handle = consentPrompt(session);
    const page = await decide(session, { handle, csrf_token: session.csrfToken, decision: 'deny' });
    expect(page.status).toBe(303);
    const target = new URL(page.location!);
    expect(target.searchParams.get('error')).toBe('access_denied');
    expect(target.searchParams.get('code')).toBeNull();
    expect(fixture.authorization.calls.at(-1)).toMatchObject({ rpc: 'decideConsent', allow: false });
  });

  it('a decided prompt is used: deciding again is the expired page', async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const handle = consentPrompt(session);
    const form = { handle, csrf_token: session.csrfToken, decision: 'allow' };
    expect((await decide(session, form)).status).toBe(303);
    const again = await decide(session, form);
    expectHtmlPage(again, 400);
    expect(heading(again)).toBe(EXPIRED);
  });

  it('needs a session', async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const handle = consentPrompt(session);
    const page = await decide(undefined, { handle, csrf_token: session.csrfToken, decision: 'allow' });
    expectHtmlPage(page, 401);
    expect(fixture.authorization.prompts.has(handle)).toBe(true);
  });

  it.each([
    ['a missing', undefined],
    ['an empty', ''],
    ['a wrong', 'a'.repeat(64)],
  ])('refuses %s CSRF token with exactly the JSON body, deciding nothing', async (_case, token) => {
    const session = fixture.identity.openBrowserSession(alice);
    const handle = consentPrompt(session);
    const before = fixture.authorization.calls.filter((call) => call.rpc === 'decideConsent').length;
    const page = await decide(session, {
      handle,
      decision: 'allow',
      ...(token === undefined ? {} : { csrf_token: token }),
    });
    expect(page.status).toBe(400);
    expect(page.contentType).toBe('application/json; charset=utf-8');
    expect(page.body).toBe(JSON.stringify(CSRF_BODY));
    expect(fixture.authorization.calls.filter((call) => call.rpc === 'decideConsent')).toHaveLength(before);
    expect(fixture.authorization.prompts.has(handle)).toBe(true);
  });

  it("refuses another session's CSRF token", async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const other = fixture.identity.openBrowserSession(alice);
    const handle = consentPrompt(session);
    const page = await decide(session, { handle, csrf_token: other.csrfToken, decision: 'allow' });
    expect(page.status).toBe(400);
    expect(JSON.parse(page.body)).toEqual(CSRF_BODY);
  });

  it.each([undefined, '', 'maybe', 'ALLOW'])(
    'refuses the decision %s with the 400 page',
    async (decision) => {
      const session = fixture.identity.openBrowserSession(alice);
      const handle = consentPrompt(session);
      const page = await decide(session, {
        handle,
        csrf_token: session.csrfToken,
        ...(decision === undefined ? {} : { decision }),
      });
      expectHtmlPage(page, 400);
      expect(heading(page)).toBe('This request is not valid');
      expect(fixture.authorization.prompts.has(handle)).toBe(true);
    },
  );

  it('refuses a decision sent twice', async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const handle = consentPrompt(session);
    const page = await fixture.ui.render('POST', '/ui/consent', {
      cookies: withSession(session),
      form: [
        ['handle', handle],
        ['csrf_token', session.csrfToken],
        ['decision', 'deny'],
        ['decision', 'allow'],
      ],
    });
    expectHtmlPage(page, 400);
    expect(fixture.authorization.prompts.has(handle)).toBe(true);
  });
});
