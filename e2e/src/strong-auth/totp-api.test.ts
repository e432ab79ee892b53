import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { accountCall, querySql, signIn } from '../support/accounts.js';
import { newUser, useCodeFlow } from '../support/code-flow.js';
import {
  ACR_MFA,
  ACR_PASSWORD,
  enrolTotp,
  INVALID_CODE,
  INVALID_TOKEN,
  passwordStep,
  secondStep,
  totpCode,
} from '../support/strong-auth-helpers.js';

// docs/interface.md 4.11 through the JSON API: enrolment, the two-step POST /auth/login, each
// code once, recovery codes once, removal (docs/strong-authentication.md #2-#4, #6, #9).
const flow = useCodeFlow();

const FIRST_PARTY_KEYS = ['access_token', 'expires_in', 'refresh_token', 'token_type'];

describe('authenticator app through the JSON API', () => {
  it('enrols, then every password login needs a code, each code accepted once', async () => {
    const user = await newUser(flow, { verified: true });
    const { accessToken } = await signIn(flow.suite, user);
    expect(decodeJwt(accessToken)).toMatchObject({ acr: ACR_PASSWORD, amr: ['pwd'] });

    const before = await accountCall(flow.suite, 'GET', '/auth/mfa', { token: accessToken });
    expect({ status: before.status, body: before.body }).toEqual({
      status: 200,
      body: { totp: false, recoveryCodesLeft: 0, passkeys: [] },
    });

    const begun = await accountCall<{ secret: string; otpauthUri: string }>(
      flow.suite,
      'POST',
      '/auth/mfa/totp',
      {
        token: accessToken,
        body: { password: user.password },
      },
    );
    expect(begun.status).toBe(200);
    expect(Object.keys(begun.body).sort()).toEqual(['otpauthUri', 'secret']);
    expect(begun.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(begun.body.otpauthUri);
    expect(`${uri.protocol}//${uri.host}`).toBe('otpauth://totp');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: new URL(flow.suite.baseUrl).host,
      secret: begun.body.secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    // Pending until confirmed: a password login still needs no second step.
    const pending = await accountCall(flow.suite, 'GET', '/auth/mfa', { token: accessToken });
    expect(pending.body).toEqual({ totp: false, recoveryCodesLeft: 0, passkeys: [] });
    // The secret is not stored in the clear.
    const [stored] = await querySql<{ secret_encrypted: string }>(
      flow.databaseUrl,
      'SELECT secret_encrypted FROM identity.totp_factors WHERE user_id = $1',
      [user.id],
    );
    expect(stored!.secret_encrypted).not.toContain(begun.body.secret);

    const confirmCode = totpCode(begun.body.secret);
    const confirmed = await accountCall<{ recoveryCodes: string[] }>(
      flow.suite,
      'POST',
      '/auth/mfa/totp/confirm',
      {
        token: accessToken,
        body: { code: confirmCode },
      },
    );
    expect(confirmed.status).toBe(200);
    expect(Object.keys(confirmed.body)).toEqual(['recoveryCodes']);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);
    for (const code of confirmed.body.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const after = await accountCall(flow.suite, 'GET', '/auth/mfa', { token: accessToken });
    expect(after.body).toEqual({ totp: true, recoveryCodesLeft: 10, passkeys: [] });

    const notice = await flow.smtp.waitFor(
      (message) => message.envelopeTo.includes(user.email) && message.subject.includes('authenticator app'),
    );
    expect(notice.subject).toBe('An authenticator app was added to your account');
    expect(notice.text).toContain('An authenticator app was added to the sign-in methods of your account.');
    expect(notice.html).toContain(
      '<p>An authenticator app was added to the sign-in methods of your account.</p>',
    );

    // The password alone no longer signs in.
    const login = await accountCall(flow.suite, 'POST', '/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(login.body).sort()).toEqual(['methods', 'mfa_required', 'mfa_token']);
    expect(login.body).toMatchObject({ mfa_required: true, methods: ['totp', 'recovery_code'] });
    const mfaToken = String(login.body.mfa_token);

    // The code that confirmed the enrolment is spent, and so is an older one.
    const replayed = await secondStep(flow.suite, mfaToken, confirmCode);
    expect({ status: replayed.status, body: replayed.body }).toEqual({ status: 400, body: INVALID_CODE });
    const wrong = await secondStep(flow.suite, mfaToken, totpCode(begun.body.secret, 10));
    expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 400, body: INVALID_CODE });

    const nextCode = totpCode(begun.body.secret, 1);
    const completed = await secondStep(flow.suite, mfaToken, nextCode);
    expect(completed.status).toBe(200);
    expect(Object.keys(completed.body).sort()).toEqual(FIRST_PARTY_KEYS);
    const claims = decodeJwt(String(completed.body.access_token));
    expect(claims).toMatchObject({ acr: ACR_MFA, amr: ['pwd', 'otp', 'mfa'] });
    expect(typeof claims.auth_time).toBe('number');

    // The mfa_token is single use, and the code is spent for another login too.
    const again = await secondStep(flow.suite, mfaToken, totpCode(begun.body.secret, 1));
    expect({ status: again.status, body: again.body }).toEqual({ status: 400, body: INVALID_TOKEN });
    const otherLogin = await passwordStep(flow.suite, user);
    const reused = await secondStep(flow.suite, otherLogin, nextCode);
    expect({ status: reused.status, body: reused.body }).toEqual({ status: 400, body: INVALID_CODE });

    const events = await querySql<{ type: string }>(
      flow.databaseUrl,
      `SELECT type FROM identity.audit_events WHERE actor_user_id = $1 AND type IN
         ('totp_enrolled', 'second_factor_failure') ORDER BY id`,
      [user.id],
    );
    expect(events.map((event) => event.type)).toEqual([
      'totp_enrolled',
      'second_factor_failure',
      'second_factor_failure',
      'second_factor_failure',
    ]);
  });

  it('accepts each recovery code once, in any case and spacing', async () => {
    const user = await newUser(flow, { verified: true });
    const { accessToken } = await signIn(flow.suite, user);
    const { recoveryCodes } = await enrolTotp(flow.suite, accessToken, user.password);
    const [first, second] = recoveryCodes as [string, string];

    const signedIn = await secondStep(flow.suite, await passwordStep(flow.suite, user), first);
    expect(signedIn.status).toBe(200);
    expect(decodeJwt(String(signedIn.body.access_token))).toMatchObject({
      acr: ACR_MFA,
      amr: ['pwd', 'otp', 'mfa'],
    });

    const usedAgain = await secondStep(flow.suite, await passwordStep(flow.suite, user), first);
    expect({ status: usedAgain.status, body: usedAgain.body }).toEqual({ status: 400, body: INVALID_CODE });

    const typed = ` ${second.toUpperCase().replace('-', ' ')} `;
    const other = await secondStep(flow.suite, await passwordStep(flow.suite, user), typed);
    expect(other.status).toBe(200);

    const factors = await accountCall(flow.suite, 'GET', '/auth/mfa', { token: accessToken });
    expect(factors.body).toEqual({ totp: true, recoveryCodesLeft: 8, passkeys: [] });
    const used = await querySql<{ type: string }>(
      flow.databaseUrl,
      `SELECT type FROM identity.audit_events WHERE actor_user_id = $1 AND type = 'recovery_code_used'`,
      [user.id],
    );
    expect(used).toHaveLength(2);
    // Only keyed hashes are stored.
    const rows = await querySql<{ code_hash: string }>(
      flow.databaseUrl,
      'SELECT code_hash FROM identity.recovery_codes WHERE user_id = $1',
      [user.id],
    );
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
      for (const code of recoveryCodes) expect(row.code_hash).not.toContain(code.replace('-', ''));
    }
  });

  it('removes the authenticator app and its recovery codes with the password', async () => {
    const user = await newUser(flow, { verified: true });
    const { accessToken } = await signIn(flow.suite, user);
    const { recoveryCodes } = await enrolTotp(flow.suite, accessToken, user.password);

    const removed = await accountCall(flow.suite, 'DELETE', '/auth/mfa/totp', {
      token: accessToken,
      body: { password: user.password },
    });
    expect({ status: removed.status, body: removed.body }).toEqual({ status: 204, body: null });
    const factors = await accountCall(flow.suite, 'GET', '/auth/mfa', { token: accessToken });
    expect(factors.body).toEqual({ totp: false, recoveryCodesLeft: 0, passkeys: [] });

    const notice = await flow.smtp.waitFor(
      (message) => message.envelopeTo.includes(user.email) && message.subject.includes('removed'),
    );
    expect(notice.subject).toBe('An authenticator app was removed from your account');

    // The password alone signs in again, and the old recovery codes are gone.
    const login = await signIn(flow.suite, user);
    expect(decodeJwt(login.accessToken)).toMatchObject({ acr: ACR_PASSWORD, amr: ['pwd'] });
    const left = await querySql(
      flow.databaseUrl,
      'SELECT 1 FROM identity.recovery_codes WHERE user_id = $1',
      [user.id],
    );
    expect(left).toEqual([]);
    expect(recoveryCodes).toHaveLength(10);
    const events = await querySql<{ type: string }>(
      flow.databaseUrl,
      `SELECT type FROM identity.audit_events WHERE actor_user_id = $1 AND type = 'totp_removed'`,
      [user.id],
    );
    expect(events).toHaveLength(1);
  });
});
