import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizedTokens,
  newAppClient,
  newUser,
  useCodeFlow,
  type AppClient,
} from '../support/code-flow.js';
import { LogoutReceiver } from '../support/logout-receiver.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { adminCall, newAdmin, type Account } from '../support/admin-scenes.js';

// docs/admin-api.md #4 with interface.md 4.3: the sessions an admin ends (disabling, or
// sessions/revoke) reach the client authorized in them as a Back-Channel Logout 1.0 token.
const flow = useCodeFlow({}, { CIMD_ALLOW_INSECURE_LOOPBACK: 'true', OUTBOX_POLL_INTERVAL_MS: '500' });
const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

let receiver: LogoutReceiver;
let client: AppClient;
let admin: Account;

beforeAll(async () => {
  receiver = await LogoutReceiver.start();
  client = await newAppClient(flow, {
    backchannelLogoutUri: receiver.uri,
    backchannelLogoutSessionRequired: true,
  });
  admin = await newAdmin(flow.suite, flow.databaseUrl);
});

afterAll(async () => {
  await receiver?.close();
});

async function signedInSession() {
  const user = await newUser(flow);
  const tokens = await authorizedTokens(flow, client, user, { scope: 'openid' }, new FormBrowser());
  const jwks = createRemoteJWKSet(new URL(`${flow.suite.baseUrl}/.well-known/jwks.json`));
  const { payload } = await jwtVerify(tokens.id_token as string, jwks, { issuer: flow.suite.baseUrl });
  return { userId: user.id, sid: payload.sid as string, jwks };
}

describe('admin actions send back-channel logout tokens', () => {
  it.each([
    ['PATCH /admin/users/{id} { disabled: true }', 'PATCH', '', { disabled: true }],
    ['POST /admin/users/{id}/sessions/revoke', 'POST', '/sessions/revoke', undefined],
  ])('%s', async (_name, method, suffix, body) => {
    const session = await signedInSession();
    const before = receiver.tokens.length;
    const response = await adminCall(
      flow.suite,
      admin,
      method,
      `/admin/users/${session.userId}${suffix}`,
      body,
    );
    expect(response.status).toBe(200);
    const token = await receiver.waitForToken(before);
    const { payload } = await jwtVerify(token, session.jwks, {
      issuer: flow.suite.baseUrl,
      audience: client.clientId,
      typ: 'logout+jwt',
    });
    expect(payload).toMatchObject({ sub: session.userId, sid: session.sid, events: { [EVENT]: {} } });
  });
});
