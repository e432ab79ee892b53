import { keyedHash } from '@authz/shared/crypto';
import { NotFoundError, UnauthorizedError, type AppError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeFields, CodeFlow, handleOf, ISSUER, pkcePair, redirectOf } from '../../test/code-flow.js';
import { FakeClients, type FakeClient } from '../../test/fake-clients.js';
import { FakeIdentity, type FakeUser } from '@authz/shared/testing/fake-identity';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../test/oauth-harness.js';
import { origin } from '../../test/token-management.js';

// interface.md 3, 4.3, 4.5: sign-in, resume, consent (docs/authorization.md #7-#10).
const environment = useTestEnvironment();
const { challenge } = pkcePair();
const ISS = encodeURIComponent(ISSUER);

let identity: FakeIdentity;
let clients: FakeClients;
let oauth: RunningOAuth;
let flow: CodeFlow;
let source: NodeJS.ProcessEnv;
let redis: Redis;
let alice: FakeUser;
let bob: FakeUser;

beforeAll(async () => {
  identity = new FakeIdentity();
  alice = identity.addUser('alice@example.com', 'pw');
  bob = identity.addUser('bob@example.com', 'pw');
  clients = new FakeClients();
  source = oauthTestSource(environment, await identity.start(), await clients.start());
  oauth = await startOAuth(source);
  flow = new CodeFlow(oauth, identity);
  redis = new Redis(environment.redisUrl);
});

afterAll(async () => {
  redis?.disconnect();
  await oauth?.close();
  await identity?.close();
  await clients?.close();
});

/** A fresh client per test, so consents of one test do not leak into another. */
function newClient(): FakeClient {
  return clients.addClient({
    method: 'client_secret_basic',
    secret: 's',
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['openid', 'email', 'profile'],
    redirectUris: ['https://app.example/cb'],
    name: 'Example App',
  });
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  return promise.then(
    () => expect.fail('expected a refusal'),
    (error: AppError) => error,
  );
}

function redisKey(namespace: string, handle: string): string {
  return `${environment.redisPrefix}oauth:${namespace}:${keyedHash(Buffer.from(source.SECRET_HASH_KEY!, 'hex'), handle)}`;
}

const resume = (handle: string, sessionToken?: string) =>
  oauth.authorization.resumeAuthorization({ handle, ...(sessionToken ? { sessionToken } : {}), origin });

const decide = (handle: string, sessionToken: string, allow: boolean) =>
  oauth.authorization.decideConsent({ handle, sessionToken, allow, origin });

/** Asserts a code redirect to the client: code, then state, then iss, nothing else. */
function expectCodeRedirect(response: Parameters<typeof redirectOf>[0], state = 'st-123'): string {
  const url = redirectOf(response);
  const code = url.searchParams.get('code')!;
  expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(url.href).toBe(`https://app.example/cb?code=${code}&state=${state}&iss=${ISS}`);
  return code;
}

describe('pending authorization (interface.md 2.6, 3)', () => {
  it('is stored under a keyed hash of its handle for 10 minutes and described to the sign-in page', async () => {
    const client = newClient();
    const handle = handleOf(await flow.authorize(authorizeFields(client, challenge)), 'login');
    const ttl = await redis.ttl(redisKey('pending-authorization', handle));
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
    expect(await redis.exists(`${environment.redisPrefix}oauth:pending-authorization:${handle}`)).toBe(0);
    expect(await oauth.authorization.getPendingAuthorization({ handle })).toMatchObject({
      clientId: client.clientId,
      clientName: 'Example App',
      scopes: ['openid', 'email'],
      loginRequired: false,
      redirectOrigin: 'https://app.example',
    });
    const again = await flow.authorize(authorizeFields(client, challenge, { prompt: 'login' }));
    expect(
      await oauth.authorization.getPendingAuthorization({ handle: handleOf(again, 'login') }),
    ).toMatchObject({
      loginRequired: true,
    });
  });

  it('sends a browser without a session back to sign-in with the same handle, not consumed', async () => {
    const client = newClient();
    const handle = handleOf(await flow.authorize(authorizeFields(client, challenge)), 'login');
    expect(handleOf(await resume(handle), 'login')).toBe(handle);
    expect(handleOf(await resume(handle, 'not-a-session'), 'login')).toBe(handle);
    const session = identity.openBrowserSession(alice);
    const consent = handleOf(await resume(handle, session.token), 'consent');
    expect(consent).not.toBe(handle);
  });

  it('is single use', async () => {
    const client = newClient();
    const handle = handleOf(await flow.authorize(authorizeFields(client, challenge)), 'login');
    const session = identity.openBrowserSession(alice);
    handleOf(await resume(handle, session.token), 'consent');
    expect(await refusal(resume(handle, session.token))).toBeInstanceOf(NotFoundError);
    expect(await refusal(resume(handle))).toBeInstanceOf(NotFoundError);
    expect(await refusal(oauth.authorization.getPendingAuthorization({ handle }))).toBeInstanceOf(
      NotFoundError,
    );
  });

  it('is consumed by exactly one of two concurrent resumes', async () => {
    const client = newClient();
    const handle = handleOf(await flow.authorize(authorizeFields(client, challenge)), 'login');
    const session = identity.openBrowserSession(alice);
    const outcomes = await Promise.allSettled([resume(handle, session.token), resume(handle, session.token)]);
    expect(outcomes.filter(({ status }) => status === 'fulfilled')).toHaveLength(1);
    const [failed] = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(failed?.reason).toBeInstanceOf(NotFoundError);
  });

  it('is gone once expired, and unknown or malformed handles are NotFound', async () => {
    const client = newClient();
    const handle = handleOf(await flow.authorize(authorizeFields(client, challenge)), 'login');
    // Expiry is Redis's: removing the key is what the TTL does after 10 minutes.
    expect(await redis.del(redisKey('pending-authorization', handle))).toBe(1);
    const session = identity.openBrowserSession(alice);
    for (const unknown of [handle, 'A'.repeat(43), 'short', '']) {
      expect(await refusal(resume(unknown, session.token))).toBeInstanceOf(NotFoundError);
      expect(await refusal(oauth.authorization.getPendingAuthorization({ handle: unknown }))).toBeInstanceOf(
        NotFoundError,
      );
    }
  });

  it('with prompt=login or max_age, accepts only a sign-in made after the request', async () => {
    const client = newClient();
    for (const overrides of [{ prompt: 'login' }, { max_age: '60' }]) {
      const old = identity.openBrowserSession(alice, Math.floor(Date.now() / 1000) - 120);
      const handle = handleOf(
        await flow.authorize(authorizeFields(client, challenge, overrides), old),
        'login',
      );
      // The old session does not count: back to sign-in, the handle still usable.
      expect(handleOf(await resume(handle, old.token), 'login')).toBe(handle);
      const fresh = identity.openBrowserSession(alice);
      handleOf(await resume(handle, fresh.token), 'consent');
    }
  });
});

describe('sign-in rules of /oauth/authorize (OIDC Core 3.1.2.1)', () => {
  it('answers prompt=none without a session, or with a stale one, with login_required', async () => {
    const client = newClient();
    const stale = identity.openBrowserSession(alice, Math.floor(Date.now() / 1000) - 100);
    const attempts = [
      flow.authorize(authorizeFields(client, challenge, { prompt: 'none' })),
      flow.authorize(authorizeFields(client, challenge, { prompt: 'none', max_age: '10' }), stale),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(redirectOf(response).href).toBe(
        `https://app.example/cb?error=login_required&error_description=The+user+must+sign+in&state=st-123&iss=${ISS}`,
      );
    }
  });

  it('sends a signed-in browser to sign in again for prompt=login and an exceeded max_age', async () => {
    const client = newClient();
    const session = identity.openBrowserSession(alice, Math.floor(Date.now() / 1000) - 100);
    handleOf(await flow.authorize(authorizeFields(client, challenge, { prompt: 'login' }), session), 'login');
    handleOf(await flow.authorize(authorizeFields(client, challenge, { max_age: '10' }), session), 'login');
    handleOf(
      await flow.authorize(authorizeFields(client, challenge, { max_age: '1000' }), session),
      'consent',
    );
  });

  it('treats an ended session as none', async () => {
    const client = newClient();
    const session = identity.openBrowserSession(alice);
    identity.browserSessions.delete(session.token);
    handleOf(await flow.authorize(authorizeFields(client, challenge), session), 'login');
  });
});

describe('consent (interface.md 4.5, 4.6)', () => {
  it('asks for consent, shows the prompt, and issues a code on Allow', async () => {
    const client = newClient();
    const session = identity.openBrowserSession(alice);
    const handle = handleOf(await flow.authorize(authorizeFields(client, challenge), session), 'consent');
    const ttl = await redis.ttl(redisKey('consent-prompt', handle));
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
    const prompt = await oauth.authorization.getConsentPrompt({ handle, sessionToken: session.token });
    expect(prompt).toMatchObject({
      clientId: client.clientId,
      clientName: 'Example App',
      scopes: ['openid', 'email'],
      newScopes: ['openid', 'email'],
      redirectOrigin: 'https://app.example',
      clientSource: 'pre_registered',
      resources: [],
    });
    expectCodeRedirect(await decide(handle, session.token, true));
    // Consumed.
    expect(await refusal(decide(handle, session.token, true))).toBeInstanceOf(NotFoundError);
    expect(
      await refusal(oauth.authorization.getConsentPrompt({ handle, sessionToken: session.token })),
    ).toBeInstanceOf(NotFoundError);
  });

  it('skips consent already given, and asks again for new scopes or prompt=consent', async () => {
    const client = newClient();
    const session = identity.openBrowserSession(alice);
    await flow.obtainCode(client, alice, { scope: 'openid' }, session);
    expectCodeRedirect(
      await flow.authorize(authorizeFields(client, challenge, { scope: 'openid' }), session),
    );
    expectCodeRedirect(
      await flow.authorize(authorizeFields(client, challenge, { scope: undefined, state: 'x' }), session),
      'x',
    );

    const wider = handleOf(await flow.authorize(authorizeFields(client, challenge), session), 'consent');
    expect(
      await oauth.authorization.getConsentPrompt({ handle: wider, sessionToken: session.token }),
    ).toMatchObject({
      scopes: ['openid', 'email'],
      newScopes: ['email'],
    });
    expectCodeRedirect(await decide(wider, session.token, true));
    const [consent] = (await oauth.authorization.listConsents({ userId: alice.id })).consents.filter(
      (candidate) => candidate.clientId === client.clientId,
    );
    expect(consent?.scopes).toEqual(['openid', 'email']);

    const forced = handleOf(
      await flow.authorize(authorizeFields(client, challenge, { prompt: 'consent' }), session),
      'consent',
    );
    expect(
      await oauth.authorization.getConsentPrompt({ handle: forced, sessionToken: session.token }),
    ).toMatchObject({
      newScopes: [],
    });
    expectCodeRedirect(await flow.authorize(authorizeFields(client, challenge, { prompt: 'none' }), session));
  });

  it('answers prompt=none with consent_required when consent is needed', async () => {
    const client = newClient();
    const session = identity.openBrowserSession(alice);
    expect(
      redirectOf(await flow.authorize(authorizeFields(client, challenge, { prompt: 'none' }), session)).href,
    ).toBe(
      `https://app.example/cb?error=consent_required&error_description=The+user+has+not+consented+to+this+request&state=st-123&iss=${ISS}`,
    );
  });

  it('sends access_denied on Deny and stores no consent', async () => {
    const client = newClient();
    const session = identity.openBrowserSession(alice);
    const handle = handleOf(await flow.authorize(authorizeFields(client, challenge), session), 'consent');
    expect(redirectOf(await decide(handle, session.token, false)).href).toBe(
      `https://app.example/cb?error=access_denied&error_description=The+user+denied+the+request&state=st-123&iss=${ISS}`,
    );
    const { consents } = await oauth.authorization.listConsents({ userId: alice.id });
    expect(consents.map(({ clientId }) => clientId)).not.toContain(client.clientId);
    handleOf(await flow.authorize(authorizeFields(client, challenge), session), 'consent');
  });

  it('answers a prompt only to the session it was shown to', async () => {
    const client = newClient();
    const session = identity.openBrowserSession(alice);
    const handle = handleOf(await flow.authorize(authorizeFields(client, challenge), session), 'consent');
    const others = [identity.openBrowserSession(bob), identity.openBrowserSession(alice)];
    for (const other of others) {
      expect(
        await refusal(oauth.authorization.getConsentPrompt({ handle, sessionToken: other.token })),
      ).toBeInstanceOf(NotFoundError);
      expect(await refusal(decide(handle, other.token, true))).toBeInstanceOf(NotFoundError);
    }
    expect(await refusal(decide(handle, 'no-session', true))).toBeInstanceOf(UnauthorizedError);
    // Not consumed by any of those.
    expectCodeRedirect(await decide(handle, session.token, true));
  });

  it('lets exactly one of two concurrent decisions through', async () => {
    const client = newClient();
    const session = identity.openBrowserSession(alice);
    const handle = handleOf(await flow.authorize(authorizeFields(client, challenge), session), 'consent');
    const outcomes = await Promise.allSettled([
      decide(handle, session.token, true),
      decide(handle, session.token, false),
    ]);
    expect(outcomes.filter(({ status }) => status === 'fulfilled')).toHaveLength(1);
    const [failed] = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(failed?.reason).toBeInstanceOf(NotFoundError);
  });
});
