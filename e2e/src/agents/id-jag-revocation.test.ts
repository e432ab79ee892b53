import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spareTestPort } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizedTokens,
  INVALID_GRANT,
  newUser,
  useCodeFlow,
  type AppClient,
} from '../support/code-flow.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { INACTIVE } from '../support/token-management.js';
import {
  exchange,
  ID_JAG_TYPE,
  introspectAs,
  JWT_BEARER,
  registerWebApp,
  TOKEN_EXCHANGE,
  tokenRequest,
} from '../support/exchange-helpers.js';

// An ID-JAG this server issues for itself (docs/enterprise-assertions.md, docs/tokens.md #30):
// it is both the issuer (ENTERPRISE_ID_JAG_AUDIENCES names its own issuer) and the target (its
// own issuer is in ENTERPRISE_TRUSTED_ISSUERS_FILE), so the token an ID-JAG is redeemed for
// here has a lineage here: the user's consent, session and refresh family. Withdrawing the
// consent or signing out denies it, and an ID-JAG not yet redeemed is refused.
const SCOPES = 'openid profile email offline_access calendar:read';
const port = await spareTestPort();
const issuer = `http://127.0.0.1:${port}`;
const trustDirectory = mkdtempSync(join(tmpdir(), 'trusted-issuers-'));
const trustFile = join(trustDirectory, 'trusted-issuers.json');
writeFileSync(
  trustFile,
  JSON.stringify([{ issuer, jwks_uri: `${issuer}/.well-known/jwks.json`, email_domains: ['example.com'] }]),
);
afterAll(() => rmSync(trustDirectory, { recursive: true, force: true }));

const flow = useCodeFlow(
  {},
  {
    DEFAULT_REALM_ALLOWED_SCOPES: SCOPES,
    DEFAULT_DYNAMIC_REGISTRATION_SCOPES: SCOPES,
    ENTERPRISE_ASSERTION_ENABLED: 'true',
    ENTERPRISE_ID_JAG_AUDIENCES: issuer,
    ENTERPRISE_TRUSTED_ISSUERS_FILE: trustFile,
    CIMD_ALLOW_INSECURE_LOOPBACK: 'true',
  },
  { port },
);

let app: AppClient;
beforeAll(async () => {
  expect(flow.suite.baseUrl).toBe(issuer);
  app = await registerWebApp(flow.suite, {
    scope: 'openid email calendar:read',
    grant_types: ['authorization_code', 'refresh_token', TOKEN_EXCHANGE, JWT_BEARER],
  });
});

const userInfoStatus = async (token: string): Promise<number> =>
  (await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } }))
    .status;

async function idJag(subjectToken: string): Promise<string> {
  const issued = await exchange(flow.suite, app, subjectToken, [
    ['requested_token_type', ID_JAG_TYPE],
    ['audience', issuer],
    ['scope', 'openid email'],
  ]);
  expect(issued.status).toBe(200);
  return issued.body.access_token as string;
}

function redeem(assertion: string) {
  return tokenRequest(flow.suite, app, [
    ['grant_type', JWT_BEARER],
    ['assertion', assertion],
  ]);
}

describe('an ID-JAG redeemed at the server that issued it', () => {
  it('its token ends with the consent, and an unredeemed ID-JAG is refused (DELETE /consents/{id})', async () => {
    const user = await newUser(flow, { verified: true });
    const browser = new FormBrowser();
    const tokens = await authorizedTokens(flow, app, user, { scope: 'openid email calendar:read' }, browser);
    const redeemed = await redeem(await idJag(tokens.access_token as string));
    expect(redeemed.status).toBe(200);
    const token = redeemed.body.access_token as string;
    expect(await userInfoStatus(token)).toBe(200);
    const pending = await idJag(tokens.access_token as string);

    const list = await browser.get(`${flow.suite.baseUrl}/consents/`);
    const { consents, csrfToken } = JSON.parse(list.text) as {
      consents: { id: string }[];
      csrfToken: string;
    };
    const revoked = await browser.request('DELETE', `${flow.suite.baseUrl}/consents/${consents[0]!.id}`, {
      headers: { 'x-csrf-token': csrfToken },
    });
    expect(revoked.status).toBe(204);

    expect(await introspectAs(flow.suite, app, token)).toEqual(INACTIVE);
    expect(await userInfoStatus(token)).toBe(401);
    const late = await redeem(pending);
    expect({ status: late.status, body: late.body }).toEqual({ status: 400, body: INVALID_GRANT });
  });

  it('its token ends with the refresh family of the token the ID-JAG was obtained with (RFC 9700 4.14.2)', async () => {
    // Logout (interface.md 4.2) ends first-party sessions, whose public client cannot obtain an
    // ID-JAG (docs/enterprise-assertions.md #3); the family is what the app's token belongs to.
    const user = await newUser(flow, { verified: true });
    const tokens = await authorizedTokens(flow, app, user, { scope: 'openid email' });
    const redeemed = await redeem(await idJag(tokens.access_token as string));
    expect(redeemed.status).toBe(200);
    const first = await tokenRequest(flow.suite, app, [
      ['grant_type', 'refresh_token'],
      ['refresh_token', tokens.refresh_token as string],
    ]);
    expect(first.status).toBe(200);
    const reuse = await tokenRequest(flow.suite, app, [
      ['grant_type', 'refresh_token'],
      ['refresh_token', tokens.refresh_token as string],
    ]);
    expect(reuse.status).toBe(400);
    expect(await introspectAs(flow.suite, app, redeemed.body.access_token as string)).toEqual(INACTIVE);
  });
});
