import { InsufficientScopeError, InvalidBearerTokenError, type AppError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeFlow } from '../../test/code-flow.js';
import { FakeClients, type FakeClient } from '../../test/fake-clients.js';
import { FakeIdentity, type FakeUser } from '@authz/shared/testing/fake-identity';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../test/oauth-harness.js';
import { form, origin } from '../../test/token-management.js';

// OIDC Core 5.3 and interface.md 4.3 UserInfo (docs/authorization.md #16).
const environment = useTestEnvironment();

let identity: FakeIdentity;
let clients: FakeClients;
let oauth: RunningOAuth;
let flow: CodeFlow;
let web: FakeClient;

beforeAll(async () => {
  identity = new FakeIdentity();
  clients = new FakeClients();
  web = clients.addClient({
    method: 'client_secret_basic',
    secret: 's',
    grantTypes: ['authorization_code', 'client_credentials'],
    scopes: ['openid', 'email'],
    redirectUris: ['https://app.example/cb'],
  });
  oauth = await startOAuth(oauthTestSource(environment, await identity.start(), await clients.start()));
  flow = new CodeFlow(oauth, identity);
});

afterAll(async () => {
  await oauth?.close();
  await identity?.close();
  await clients?.close();
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  return promise.then(
    () => expect.fail('expected a refusal'),
    (error: AppError) => error,
  );
}

async function accessToken(user: FakeUser, scope: string | undefined): Promise<string> {
  const { code, verifier } = await flow.obtainCode(web, user, { scope });
  return (await flow.redeem(web, code, verifier)).accessToken;
}

const userInfo = (token: string) => oauth.tokens.userInfo({ accessToken: token });

/** The response as the members it carries, to compare exactly. */
async function members(token: string): Promise<Record<string, unknown>> {
  const { sub, email, emailVerified } = await userInfo(token);
  return {
    sub,
    ...(email === undefined ? {} : { email }),
    ...(emailVerified === undefined ? {} : { email_verified: emailVerified }),
  };
}

describe('UserInfo', () => {
  it('gives sub only, without a verified email attribute', async () => {
    const user = identity.addUser('plain@example.com', 'pw');
    expect(await members(await accessToken(user, 'openid email'))).toEqual({ sub: user.id });
  });

  it('picks the verified email by trust order wallet, oidc_*, self_reported', async () => {
    const user = identity.addUser('trust@example.com', 'pw');
    const token = await accessToken(user, 'openid email');
    const cases: [{ email: string; source: string }[], string][] = [
      [[{ email: 'self@example.com', source: 'self_reported' }], 'self@example.com'],
      [
        [
          { email: 'self@example.com', source: 'self_reported' },
          { email: 'google@example.com', source: 'oidc_google' },
        ],
        'google@example.com',
      ],
      [
        [
          { email: 'self@example.com', source: 'self_reported' },
          { email: 'google@example.com', source: 'oidc_google' },
          { email: 'wallet@example.com', source: 'wallet' },
        ],
        'wallet@example.com',
      ],
    ];
    for (const [verifiedEmails, expected] of cases) {
      user.verifiedEmails = verifiedEmails;
      await oauth.announceUserChange(user.id);
      expect(await members(token)).toEqual({ sub: user.id, email: expected, email_verified: true });
    }
    user.verifiedEmails = [{ email: 'other@example.com', source: 'unknown_source' }];
    await oauth.announceUserChange(user.id);
    expect(await members(token)).toEqual({ sub: user.id });
  });

  it('gives no email without the email scope', async () => {
    const user = identity.addUser('scoped@example.com', 'pw');
    user.verifiedEmails = [{ email: 'scoped@example.com', source: 'self_reported' }];
    expect(await members(await accessToken(user, 'openid'))).toEqual({ sub: user.id });
  });

  it('refuses a token without openid as insufficient_scope', async () => {
    const user = identity.addUser('noopenid@example.com', 'pw');
    for (const token of [await accessToken(user, 'email'), await accessToken(user, undefined)]) {
      expect(await refusal(userInfo(token))).toBeInstanceOf(InsufficientScopeError);
    }
  });

  it('refuses garbage, tampered, revoked and orphaned tokens as invalid_token', async () => {
    const user = identity.addUser('gone@example.com', 'pw');
    const token = await accessToken(user, 'openid');
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'mallory' })).toString('base64url')}.${signature}`;
    for (const bad of ['', 'garbage', forged]) {
      expect(await refusal(userInfo(bad))).toBeInstanceOf(InvalidBearerTokenError);
    }

    const revoked = await accessToken(user, 'openid');
    await oauth.tokens.revoke({
      parameters: form([['token', revoked]]),
      basic: { clientId: web.clientId, clientSecret: 's' },
      origin,
    });
    expect(await refusal(userInfo(revoked))).toBeInstanceOf(InvalidBearerTokenError);

    identity.users.delete(user.id);
    await oauth.announceUserChange(user.id);
    expect(await refusal(userInfo(token))).toBeInstanceOf(InvalidBearerTokenError);
  });

  it('refuses a client_credentials token, which has no user', async () => {
    const { tokens } = await oauth.tokens.token({
      parameters: form([
        ['grant_type', 'client_credentials'],
        ['scope', 'openid'],
      ]),
      basic: { clientId: web.clientId, clientSecret: 's' },
      origin,
    });
    expect(await refusal(userInfo(tokens!.accessToken))).toBeInstanceOf(InvalidBearerTokenError);
  });
});
