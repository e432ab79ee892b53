import { describe, expect, it } from 'vitest';
import {
  INVALID_GRANT,
  completeAuthorization,
  newAppClient,
  newUser,
  redeemCode,
  useCodeFlow,
} from '../support/code-flow.js';
import { adminCall, newAdmin } from '../support/admin-scenes.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';

/**
 * An authorization code outlives no session: disabling the account (interface.md 4.15,
 * docs/admin-api.md #4) between the code and its exchange leaves the code worthless, since its
 * tokens would name a session that has ended and that no session end would revoke any more
 * (docs/authorization.md #23).
 */
const flow = useCodeFlow();

describe('a code whose session ended before the exchange', () => {
  it('is refused with invalid_grant once the account is disabled, and stays refused after enabling', async () => {
    const admin = await newAdmin(flow.suite, flow.databaseUrl);
    const user = await newUser(flow, { verified: true });
    const client = await newAppClient(flow);
    const { code, verifier } = await completeAuthorization(flow, new FormBrowser(), user, { client });
    expect(code).toBeDefined();

    const disabled = await adminCall(flow.suite, admin, 'PATCH', `/admin/users/${user.id}`, {
      disabled: true,
    });
    expect(disabled.status).toBe(200);
    const refused = await redeemCode(flow, client, code!, verifier);
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: INVALID_GRANT });

    const enabled = await adminCall(flow.suite, admin, 'PATCH', `/admin/users/${user.id}`, {
      disabled: false,
    });
    expect(enabled.status).toBe(200);
    const again = await redeemCode(flow, client, code!, verifier);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('is exchanged as before while the session lives', async () => {
    const user = await newUser(flow, { verified: true });
    const client = await newAppClient(flow);
    const { code, verifier } = await completeAuthorization(flow, new FormBrowser(), user, { client });
    const redeemed = await redeemCode(flow, client, code!, verifier);
    expect(redeemed.status).toBe(200);
    expect(redeemed.body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
  });
});
