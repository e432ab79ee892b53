import { openTestPool } from '@authz/shared/testing';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizedTokens,
  INVALID_GRANT,
  newAppClient,
  newUser,
  refresh,
  useCodeFlow,
  type AppClient,
  type TestUser,
} from '../support/code-flow.js';
import { LogoutReceiver } from '../support/logout-receiver.js';
import { metricValue } from '../support/metrics.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';

// interface.md 4.3, OpenID Connect Back-Channel Logout 1.0: every session end reaches every client
// authorized in the session as a logout token POSTed to its loopback receiver
// (CIMD_ALLOW_INSECURE_LOOPBACK, test-only), verified here against the published JWKS.
const flow = useCodeFlow({}, { CIMD_ALLOW_INSECURE_LOOPBACK: 'true', OUTBOX_POLL_INTERVAL_MS: '500' });
const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

let receiver: LogoutReceiver;
let client: AppClient;
let silent: AppClient;
let sql: pg.Pool;

beforeAll(async () => {
  receiver = await LogoutReceiver.start();
  client = await newAppClient(flow, {
    backchannelLogoutUri: receiver.uri,
    backchannelLogoutSessionRequired: true,
  });
  // A client without a back-channel URI in the same session gets nothing and breaks nothing.
  silent = await newAppClient(flow, { name: 'Silent app' });
  sql = openTestPool(flow.databaseUrl, 2);
});

afterAll(async () => {
  await receiver?.close();
  await sql?.end();
});

interface Session {
  user: TestUser;
  sid: string;
  idToken: string;
  refreshToken: string;
}

async function signedIn(): Promise<Session> {
  const user = await newUser(flow);
  const browser = new FormBrowser();
  const tokens = await authorizedTokens(flow, client, user, { scope: 'openid offline_access' }, browser);
  await authorizedTokens(flow, silent, user, { scope: 'openid' }, browser);
  const idToken = tokens.id_token as string;
  const { payload } = await jwtVerify(idToken, jwks(), { issuer: flow.suite.baseUrl });
  return { user, sid: payload.sid as string, idToken, refreshToken: tokens.refresh_token as string };
}

const jwks = () => createRemoteJWKSet(new URL(`${flow.suite.baseUrl}/.well-known/jwks.json`));

/** Back-Channel Logout 1.0 section 2.6 validation, as a relying party does it. */
async function expectLogoutToken(token: string, session: Session): Promise<JWTPayload> {
  expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'EdDSA', typ: 'logout+jwt' });
  const { payload } = await jwtVerify(token, jwks(), {
    issuer: flow.suite.baseUrl,
    audience: client.clientId,
    typ: 'logout+jwt',
    algorithms: ['EdDSA'],
    maxTokenAge: 120,
  });
  expect(payload).toEqual({
    iss: flow.suite.baseUrl,
    aud: client.clientId,
    sub: session.user.id,
    sid: session.sid,
    iat: expect.any(Number),
    exp: (payload.iat ?? 0) + 120,
    jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    events: { [EVENT]: {} },
  });
  expect(payload).not.toHaveProperty('nonce');
  return payload;
}

describe('a logout token for every kind of session end', () => {
  it('RP-initiated logout with id_token_hint', async () => {
    const session = await signedIn();
    const before = receiver.tokens.length;
    const started = Date.now();
    const response = await fetch(
      `${flow.suite.baseUrl}/oauth/logout?${new URLSearchParams({ id_token_hint: session.idToken })}`,
      { redirect: 'manual' },
    );
    expect(response.status).toBe(302);
    await expectLogoutToken(await receiver.waitForToken(before), session);
    expect(Date.now() - started).toBeLessThan(10_000);
    // Exactly one: the silent client registered no URI.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.tokens).toHaveLength(before + 1);
  });

  it('RP-initiated logout confirmed on the page', async () => {
    const user = await newUser(flow);
    const browser = new FormBrowser();
    const tokens = await authorizedTokens(flow, client, user, { scope: 'openid' }, browser);
    const { payload } = await jwtVerify(tokens.id_token as string, jwks(), { issuer: flow.suite.baseUrl });
    const session = { user, sid: payload.sid as string, idToken: '', refreshToken: '' };
    const before = receiver.tokens.length;
    const start = await browser.get(`${flow.suite.baseUrl}/oauth/logout?client_id=${client.clientId}`);
    const page = await browser.get(start.location!);
    const csrf = /name="csrf_token" value="([0-9a-f]{64})"/.exec(page.text)![1]!;
    const handle = new URL(start.location!).searchParams.get('handle')!;
    const confirmed = await browser.post(`${flow.suite.baseUrl}/ui/logout`, [
      ['handle', handle],
      ['csrf_token', csrf],
    ]);
    expect(confirmed.status).toBe(303);
    await expectLogoutToken(await receiver.waitForToken(before), session);
  });

  it('any end recorded in identity.sessions, by whatever code (the trigger of the session-end outbox)', async () => {
    const session = await signedIn();
    const before = receiver.tokens.length;
    // What a password reset or DELETE /auth/sessions/{id} does to the row, without calling anything else.
    await sql.query(`UPDATE identity.sessions SET ended_at = now() WHERE id = $1`, [session.sid]);
    await expectLogoutToken(await receiver.waitForToken(before), session);
    // The consumer also revoked the session's tokens.
    const refreshed = await refresh(flow, client, session.refreshToken);
    expect(refreshed.body).toMatchObject(INVALID_GRANT);
  });

  it('a live session deleted with its account', async () => {
    const session = await signedIn();
    const before = receiver.tokens.length;
    await sql.query(`DELETE FROM identity.users WHERE id = $1`, [session.user.id]);
    await expectLogoutToken(await receiver.waitForToken(before), session);
  });
});

describe('delivery', () => {
  it('reaches a receiver that was down once it is back, and counts the outcomes', async () => {
    const metric = async (outcome: string) =>
      metricValue(await flow.suite.oauthMetrics.metrics(), 'backchannel_logout_deliveries_total', {
        outcome,
      });
    const [deliveredBefore, retriedBefore] = [await metric('delivered'), await metric('retried')];
    const session = await signedIn();
    const before = receiver.tokens.length;
    receiver.stop();
    const response = await fetch(
      `${flow.suite.baseUrl}/oauth/logout?${new URLSearchParams({ id_token_hint: session.idToken })}`,
      { redirect: 'manual' },
    );
    // Never blocking the user: the logout answered while the receiver was unreachable.
    expect(response.status).toBe(302);
    await expect.poll(() => metric('retried'), { timeout: 10_000 }).toBeGreaterThan(retriedBefore);
    receiver.resume();
    await expectLogoutToken(await receiver.waitForToken(before, 20_000), session);
    expect(await metric('delivered')).toBeGreaterThan(deliveredBefore);
  });
});
