import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, useCodeFlow } from '../support/code-flow.js';
import { adminCall, newAdmin } from '../support/admin-scenes.js';
import { LogoutReceiver } from '../support/logout-receiver.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { DEVICE_GRANT, decideOnPages, newDeviceClient, pollDevice, startDevice } from './device-scene.js';

/**
 * A device grant belongs to the session that approved it (docs/device-grant.md #11): when that
 * session ends, the device's access token stops working even without a refresh token, and the
 * device client gets a back-channel logout token (interface.md 4.3) like any client authorized
 * in the session.
 */
const flow = useCodeFlow(
  { DEVICE_CODE_ENTRY_RATE_LIMIT: '1000' },
  { CIMD_ALLOW_INSECURE_LOOPBACK: 'true', OUTBOX_POLL_INTERVAL_MS: '500' },
);
const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

let receiver: LogoutReceiver;

beforeAll(async () => {
  receiver = await LogoutReceiver.start();
});

afterAll(async () => {
  await receiver?.close();
});

const userInfo = (accessToken: string) =>
  fetch(`${flow.suite.baseUrl}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });

describe('the end of the session that approved a device', () => {
  it('revokes the access token of a client without refresh tokens and sends it a logout token', async () => {
    const admin = await newAdmin(flow.suite, flow.databaseUrl);
    const user = await newUser(flow, { verified: true });
    const client = await newDeviceClient(flow, {
      grantTypes: [DEVICE_GRANT],
      backchannelLogoutUri: receiver.uri,
      backchannelLogoutSessionRequired: true,
    });
    const { device_code, user_code } = await startDevice(flow, client, 'openid email');
    const approved = await decideOnPages(flow, new FormBrowser(), user, user_code, 'allow');
    expect(approved.status).toBe(200);
    const tokens = await pollDevice(flow, client, device_code);
    expect(tokens.status).toBe(200);
    expect(tokens.body.refresh_token).toBeUndefined();
    const accessToken = tokens.body.access_token as string;
    expect((await userInfo(accessToken)).status).toBe(200);
    const jwks = createRemoteJWKSet(new URL(`${flow.suite.baseUrl}/.well-known/jwks.json`));
    const { payload: idToken } = await jwtVerify(tokens.body.id_token as string, jwks, {
      issuer: flow.suite.baseUrl,
      audience: client.clientId,
    });

    const before = receiver.tokens.length;
    const revoked = await adminCall(flow.suite, admin, 'POST', `/admin/users/${user.id}/sessions/revoke`);
    expect(revoked.status).toBe(200);
    const logoutToken = await receiver.waitForToken(before);
    const { payload } = await jwtVerify(logoutToken, jwks, {
      issuer: flow.suite.baseUrl,
      audience: client.clientId,
      typ: 'logout+jwt',
    });
    expect(payload).toMatchObject({ sub: user.id, sid: idToken.sid, events: { [EVENT]: {} } });
    // The session's tokens are revoked before its logout tokens are queued.
    const refused = await userInfo(accessToken);
    expect(refused.status).toBe(401);
  });
});
