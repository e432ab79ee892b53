import { describe, expect, it } from 'vitest';
import { INVALID_CSRF } from '../support/code-flow.js';
import { parseForms, FormBrowser, type Fields } from '@authz/shared/testing/form-browser';
import { useSuite } from '../support/use-suite.js';

// docs/strong-authentication.md #16, #18: what the passkey routes refuse without a browser's
// authenticator. (The ceremonies themselves: passkeys.browser.test.ts.)
const context = useSuite({ gatewayEnv: { LOGIN_RATE_LIMIT: '1000' } });

const REFUSED = 'That passkey could not sign you in. Try again, or sign in with your password.';

/** A browser at the sign-in page: its pre-session cookie and the sign-in form's hidden fields. */
async function atSignInPage(): Promise<{ browser: FormBrowser; hidden: Fields }> {
  const browser = new FormBrowser();
  const page = await browser.get(`${context.suite.baseUrl}/ui/login`);
  expect(page.status).toBe(200);
  const [form] = parseForms(page.text, `${context.suite.baseUrl}/ui/login`);
  return { browser, hidden: form!.hidden };
}

async function signInOptions(browser: FormBrowser): Promise<Record<string, unknown>> {
  const answer = await browser.post(`${context.suite.baseUrl}/ui/login/passkey/options`, []);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return JSON.parse(answer.text) as Record<string, unknown>;
}

/** An assertion shaped as WebAuthn's JSON, for `challenge`, by a credential nobody registered. */
function forgedAssertion(challenge: string): string {
  const clientData = { type: 'webauthn.get', challenge, origin: context.suite.baseUrl, crossOrigin: false };
  const bytes = (length: number) => Buffer.alloc(length, 7).toString('base64url');
  return JSON.stringify({
    id: bytes(32),
    rawId: bytes(32),
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: Buffer.from(JSON.stringify(clientData)).toString('base64url'),
      authenticatorData: bytes(37),
      signature: bytes(70),
      userHandle: Buffer.from('00000000-0000-4000-8000-000000000000').toString('base64url'),
    },
  });
}

function alertOf(html: string): string | undefined {
  return /<p class="alert" role="alert" id="sign-in-error">([^<]*)<\/p>/.exec(html)?.[1];
}

describe('passkey sign-in refusals', () => {
  it('answers discoverable request options: RP ID the issuer host, user verification required', async () => {
    const { browser } = await atSignInPage();
    const options = await signInOptions(browser);
    expect(options).toEqual({
      rpId: '127.0.0.1',
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      timeout: expect.any(Number),
      userVerification: 'required',
    });
    // Each request gets its own challenge.
    expect((await signInOptions(browser)).challenge).not.toBe(options.challenge);
  });

  it('refuses an unknown credential, then the same challenge again, with one page and 401', async () => {
    const { browser, hidden } = await atSignInPage();
    const { challenge } = (await signInOptions(browser)) as { challenge: string };
    const response = forgedAssertion(challenge);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const answer = await browser.post(`${context.suite.baseUrl}/ui/login/passkey`, [
        ...hidden,
        ['response', response],
      ]);
      expect(answer.status).toBe(401);
      expect(alertOf(answer.text)).toBe(REFUSED);
      expect(answer.setCookies).toEqual([]);
    }
  });

  it('refuses a challenge it never issued, and a response that is not JSON, the same way', async () => {
    const { browser, hidden } = await atSignInPage();
    for (const response of [forgedAssertion('A'.repeat(43)), 'not json', '']) {
      const answer = await browser.post(`${context.suite.baseUrl}/ui/login/passkey`, [
        ...hidden,
        ['response', response],
      ]);
      expect(answer.status).toBe(401);
      expect(alertOf(answer.text)).toBe(REFUSED);
    }
  });

  it('checks the sign-in form CSRF token first', async () => {
    const { browser, hidden } = await atSignInPage();
    const { challenge } = (await signInOptions(browser)) as { challenge: string };
    const fields = hidden.map(([name, value]): [string, string] => [
      name,
      name === 'csrf_token' ? 'x' : value,
    ]);
    const answer = await browser.post(`${context.suite.baseUrl}/ui/login/passkey`, [
      ...fields,
      ['response', forgedAssertion(challenge)],
    ]);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual(INVALID_CSRF);
  });

  it('lets only the pages with ceremonies load our scripts (CSP)', async () => {
    const browser = new FormBrowser();
    const login = await browser.get(`${context.suite.baseUrl}/ui/login`);
    expect(login.headers.get('content-security-policy')).toBe(
      "default-src 'none';style-src 'self';img-src 'self' data:;form-action 'self';frame-ancestors 'none';" +
        "base-uri 'none';script-src 'self';connect-src 'self'",
    );
    const script = await browser.get(`${context.suite.baseUrl}/ui/assets/passkeys.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const forgot = await browser.get(`${context.suite.baseUrl}/ui/forgot-password`);
    expect(forgot.headers.get('content-security-policy')).not.toContain('script-src');
  });
});
