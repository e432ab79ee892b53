import { describe, expect, it } from 'vitest';
import {
  INVALID_GRANT,
  newAppClient,
  newUser,
  refresh,
  useCodeFlow,
  verifyIdToken,
} from '../support/code-flow.js';
import { FormBrowser, pageText } from '@authz/shared/testing/form-browser';
import { INVALID_CLIENT, verifyAtJwks } from '../support/tokens.js';
import {
  DEVICE_GRANT,
  USER_CODE,
  decideOnPages,
  enterUserCode,
  newDeviceClient,
  pollDevice,
  requestDeviceAuthorization,
  startDevice,
} from './device-scene.js';

// interface.md 4.13 and RFC 8628 through the gateway: the device authorization endpoint, every
// answer of the device_code grant with its exact body, and the approval on the hosted pages
// (driven here over HTTP; device-flow.browser.test.ts drives them in Chromium).
const flow = useCodeFlow({ DEVICE_CODE_ENTRY_RATE_LIMIT: '1000' });

const oauthError = (error: string, statusCode: number, error_description?: string) => ({
  error,
  ...(error_description === undefined ? {} : { error_description }),
  code: error.toUpperCase(),
  statusCode,
});

describe('POST /oauth/device_authorization (RFC 8628 section 3.1, 3.2)', () => {
  it('issues a device code and a XXXX-XXXX user code for the verification page', async () => {
    const client = await newDeviceClient(flow);
    const started = await requestDeviceAuthorization(flow, client, [['scope', 'openid email']]);
    const base = flow.suite.baseUrl;
    expect(started.status).toBe(200);
    expect(started.headers.get('cache-control')).toBe('no-store');
    const userCode = started.body.user_code as string;
    expect(userCode).toMatch(USER_CODE);
    expect(started.body).toEqual({
      device_code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user_code: userCode,
      verification_uri: `${base}/ui/device`,
      verification_uri_complete: `${base}/ui/device?user_code=${userCode}`,
      expires_in: 600,
      interval: 5,
    });
  });

  it('stores neither code itself, only keyed hashes', async () => {
    const client = await newDeviceClient(flow);
    const started = await startDevice(flow, client);
    const keys = await flow.redis.keys(`${flow.redisPrefix}oauth:device-*`);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    const stored = [...keys];
    for (const key of keys) {
      const type = await flow.redis.type(key);
      if (type === 'hash') stored.push(...Object.values(await flow.redis.hgetall(key)));
      if (type === 'string') stored.push((await flow.redis.get(key))!);
    }
    const plain = [started.device_code, started.user_code, started.user_code.replace('-', '')];
    for (const value of stored) for (const code of plain) expect(value).not.toContain(code);
  });

  it('authenticates a confidential client as the token endpoint does', async () => {
    const client = await newDeviceClient(flow, { tokenEndpointAuthMethod: 'client_secret_basic' });
    expect((await requestDeviceAuthorization(flow, client)).status).toBe(200);
    const wrong = { ...client, clientSecret: 'not-the-secret' };
    const refused = await requestDeviceAuthorization(flow, wrong);
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: INVALID_CLIENT });
    expect(refused.headers.get('www-authenticate')).toBe('Basic realm="authz"');
  });

  it('refuses an unknown client: invalid_client', async () => {
    const client = await newDeviceClient(flow);
    const answer = await requestDeviceAuthorization(flow, { ...client, clientId: 'no-such-client' });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: INVALID_CLIENT });
  });

  it('refuses a client without the device grant: unauthorized_client', async () => {
    const client = await newAppClient(flow, { tokenEndpointAuthMethod: 'none' });
    const answer = await requestDeviceAuthorization(flow, client);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: oauthError('unauthorized_client', 400, `The client may not use ${DEVICE_GRANT}`),
    });
  });

  it('validates the scope as /oauth/authorize does: invalid_scope', async () => {
    const client = await newDeviceClient(flow);
    const outside = await requestDeviceAuthorization(flow, client, [['scope', 'openid admin']]);
    expect({ status: outside.status, body: outside.body }).toEqual({
      status: 400,
      body: oauthError('invalid_scope', 400, 'The requested scope is not allowed for this client'),
    });
    const malformed = await requestDeviceAuthorization(flow, client, [['scope', 'openid "email"']]);
    expect({ status: malformed.status, body: malformed.body }).toEqual({
      status: 400,
      body: oauthError('invalid_scope', 400, 'Malformed scope'),
    });
  });

  it('refuses a parameter sent twice: invalid_request', async () => {
    const client = await newDeviceClient(flow);
    const answer = await requestDeviceAuthorization(flow, client, [
      ['scope', 'openid'],
      ['scope', 'email'],
    ]);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: oauthError('invalid_request', 400, 'Parameter scope was sent more than once'),
    });
  });

  it('limits the device authorizations of each client, public ones too', async () => {
    const client = await newDeviceClient(flow);
    for (let request = 0; request < 30; request += 1) {
      expect((await requestDeviceAuthorization(flow, client)).status).toBe(200);
    }
    const limited = await requestDeviceAuthorization(flow, client);
    expect({ status: limited.status, body: limited.body }).toEqual({
      status: 429,
      body: { error: 'rate_limited', statusCode: 429, code: 'RATE_LIMITED' },
    });
    expect(limited.headers.get('retry-after')).toBe('60');
    // Another client's budget is its own.
    expect((await requestDeviceAuthorization(flow, await newDeviceClient(flow))).status).toBe(200);
  });

  it('is advertised in the metadata with the grant type', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const metadata = (await (await fetch(`${flow.suite.baseUrl}${path}`)).json()) as Record<
        string,
        unknown
      >;
      expect(metadata.device_authorization_endpoint).toBe(`${flow.suite.baseUrl}/oauth/device_authorization`);
      expect(metadata.grant_types_supported).toContain(DEVICE_GRANT);
    }
  });
});

describe('the device_code grant (RFC 8628 section 3.4, 3.5)', () => {
  it('answers authorization_pending, then slow_down to a device polling faster than its interval', async () => {
    const client = await newDeviceClient(flow);
    const { device_code } = await startDevice(flow, client);
    const first = await pollDevice(flow, client, device_code);
    expect({ status: first.status, body: first.body }).toEqual({
      status: 400,
      body: oauthError('authorization_pending', 400),
    });
    expect(first.headers.get('cache-control')).toBe('no-store');
    // Each slow_down adds 5 seconds to the interval (section 3.5).
    const second = await pollDevice(flow, client, device_code);
    expect({ status: second.status, body: second.body }).toEqual({
      status: 400,
      body: oauthError('slow_down', 400, 'Poll no more often than every 10 seconds'),
    });
    const third = await pollDevice(flow, client, device_code);
    expect(third.body).toEqual(oauthError('slow_down', 400, 'Poll no more often than every 15 seconds'));
  });

  it.each([
    [
      'no device_code',
      [] as [string, string][],
      oauthError('invalid_request', 400, 'device_code is required'),
    ],
    ['an unknown device_code', [['device_code', 'A'.repeat(43)]] as [string, string][], INVALID_GRANT],
    ['a malformed device_code', [['device_code', 'not a device code']] as [string, string][], INVALID_GRANT],
  ])('refuses %s', async (_name, fields, body) => {
    const client = await newDeviceClient(flow);
    const answer = await fetch(`${flow.suite.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams([
        ['grant_type', DEVICE_GRANT],
        ...fields,
        ['client_id', client.clientId],
      ]).toString(),
    });
    expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 400, body });
  });

  it("refuses another client's device code, and a client without the grant", async () => {
    const owner = await newDeviceClient(flow);
    const other = await newDeviceClient(flow);
    const { device_code } = await startDevice(flow, owner);
    const stolen = await pollDevice(flow, other, device_code);
    expect({ status: stolen.status, body: stolen.body }).toEqual({ status: 400, body: INVALID_GRANT });
    const webApp = await newAppClient(flow, { tokenEndpointAuthMethod: 'none' });
    const notAllowed = await pollDevice(flow, webApp, device_code);
    expect({ status: notAllowed.status, body: notAllowed.body }).toEqual({
      status: 400,
      body: oauthError('unauthorized_client', 400, `The client may not use ${DEVICE_GRANT}`),
    });
    // The owner's poll is still the first one: neither stranger's poll counted against it.
    expect((await pollDevice(flow, owner, device_code)).body).toEqual(
      oauthError('authorization_pending', 400),
    );
  });

  it('issues the tokens of the code flow once the user allows, the device code single use', async () => {
    const client = await newDeviceClient(flow);
    const user = await newUser(flow);
    const browser = new FormBrowser();
    const { device_code, user_code } = await startDevice(flow, client, 'openid email offline_access');
    const approved = await decideOnPages(flow, browser, user, user_code, 'allow');
    expect(approved.status).toBe(200);
    expect(pageText(approved.text)).toContain('You allowed the app on your device.');

    const tokens = await pollDevice(flow, client, device_code);
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    expect(tokens.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      id_token: expect.any(String),
      expires_in: 900,
      token_type: 'Bearer',
      scope: 'openid email offline_access',
    });
    const { payload: access } = await verifyAtJwks(flow.suite, tokens.body.access_token as string);
    expect(access).toMatchObject({
      sub: user.id,
      client_id: client.clientId,
      scope: 'openid email offline_access',
    });
    const idToken = await verifyIdToken(flow, client, tokens.body.id_token as string);
    expect(idToken).toMatchObject({
      sub: user.id,
      aud: client.clientId,
      auth_time: expect.any(Number),
      sid: expect.any(String),
      email: user.email,
    });
    expect(idToken.nonce).toBeUndefined();
    // The consent is recorded as the consent screen records it (interface.md 4.6).
    const consents = await browser.get(`${flow.suite.baseUrl}/consents/`);
    expect(JSON.parse(consents.text).consents).toEqual([
      expect.objectContaining({ clientId: client.clientId, scopes: ['openid', 'email', 'offline_access'] }),
    ]);
    // The refresh token works as one from the code flow.
    expect((await refresh(flow, client, tokens.body.refresh_token as string)).status).toBe(200);

    const again = await pollDevice(flow, client, device_code);
    expect({ status: again.status, body: again.body }).toEqual({
      status: 400,
      body: oauthError('invalid_grant', 400, 'The device code was already used'),
    });
    // The user code is spent with the decision.
    expect((await enterUserCode(flow, browser, user_code)).status).toBe(400);
  });

  it('answers access_denied once the user denies, and keeps answering it', async () => {
    const client = await newDeviceClient(flow);
    const user = await newUser(flow);
    const { device_code, user_code } = await startDevice(flow, client);
    const denied = await decideOnPages(flow, new FormBrowser(), user, user_code, 'deny');
    expect(denied.status).toBe(200);
    expect(pageText(denied.text)).toContain('You denied the request.');
    for (let poll = 0; poll < 2; poll += 1) {
      const answer = await pollDevice(flow, client, device_code);
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 400,
        body: oauthError('access_denied', 400, 'The user denied the request'),
      });
    }
  });

  it('gives a refresh token only to a client holding the refresh_token grant', async () => {
    const client = await newDeviceClient(flow, { grantTypes: [DEVICE_GRANT] });
    const user = await newUser(flow);
    const { device_code, user_code } = await startDevice(flow, client, 'email');
    await decideOnPages(flow, new FormBrowser(), user, user_code, 'allow');
    const tokens = await pollDevice(flow, client, device_code);
    expect(tokens.body).toEqual({
      access_token: expect.any(String),
      expires_in: 900,
      token_type: 'Bearer',
      scope: 'email',
    });
  });
});
