import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { bearerChallenge } from '../support/http.js';
import { call } from '../support/clients.js';
import { useSuite } from '../support/use-suite.js';
import {
  accessTokenStatus,
  INVALID_CREDENTIALS,
  INVALID_TOKEN,
  login,
  mailsTo,
  NEW_PASSWORD,
  newEmail,
  PASSWORD,
  refresh,
  register,
  signIn,
  tokenOfLink,
  UNAUTHORIZED,
} from './account-scenes.js';

// interface.md 4.10: change-password, change-email and POST /auth/verify, end to end.
const context = useSuite({ smtp: true, gatewayEnv: { LOGIN_RATE_LIMIT: '1000' } });

const post = (path: string, body: unknown, token?: string) =>
  call(context.suite, 'POST', path, { body, ...(token === undefined ? {} : { token }) });

const VALIDATION = { error: 'Validation error', statusCode: 400, code: 'VALIDATION_ERROR' };

describe('POST /auth/change-password', () => {
  it('keeps the calling session and ends the others', async () => {
    const email = newEmail('change');
    await register(context, email);
    const caller = await signIn(context, email);
    const other = await signIn(context, email);

    const changed = await post(
      '/auth/change-password',
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      caller.access_token,
    );
    expect(changed).toMatchObject({ status: 200, body: { message: 'Password changed' } });

    expect(await accessTokenStatus(context, caller.access_token)).toBe(200);
    expect(await accessTokenStatus(context, other.access_token)).toBe(401);
    expect((await refresh(context, other.refresh_token)).status).toBe(400);
    const renewed = await refresh(context, caller.refresh_token);
    expect(renewed.status).toBe(200);
    expect(await accessTokenStatus(context, renewed.body.access_token as string)).toBe(200);

    expect((await login(context, email, PASSWORD)).status).toBe(401);
    expect((await login(context, email, NEW_PASSWORD)).status).toBe(200);
    await mailsTo(context, email, 'Your password was changed');
  });

  it('answers every error row of interface.md 4.2 with its exact body', async () => {
    const email = newEmail('change-errors');
    await register(context, email);
    const { access_token: token } = await signIn(context, email);

    const anonymous = await post('/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
    expect(anonymous.headers.get('www-authenticate')).toBe(bearerChallenge(context.suite.baseUrl));
    expect((await post('/auth/change-password', {}, 'not-a-token')).body).toEqual(UNAUTHORIZED);

    const wrong = await post(
      '/auth/change-password',
      { currentPassword: 'not-my-password', newPassword: NEW_PASSWORD },
      token,
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(INVALID_CREDENTIALS);

    const weak = await post(
      '/auth/change-password',
      { currentPassword: PASSWORD, newPassword: 'password1' },
      token,
    );
    expect(weak.status).toBe(400);
    expect(weak.body).toEqual({
      ...VALIDATION,
      details: [{ path: 'newPassword', message: 'is too common' }],
    });

    const missing = await post('/auth/change-password', {}, token);
    expect(missing.body).toEqual({
      ...VALIDATION,
      details: [
        { path: 'currentPassword', message: 'is required' },
        { path: 'newPassword', message: 'is required' },
      ],
    });
    // Nothing changed.
    expect((await login(context, email, PASSWORD)).status).toBe(200);
  });
});

describe('POST /auth/change-email and POST /auth/verify', () => {
  it('changes the address only once the link mailed to it is confirmed, then tells the old one', async () => {
    const oldEmail = newEmail('old');
    const nextEmail = newEmail('next');
    await register(context, oldEmail);
    const { access_token: token } = await signIn(context, oldEmail);

    const asked = await post('/auth/change-email', { newEmail: nextEmail, password: PASSWORD }, token);
    expect(asked).toMatchObject({
      status: 202,
      body: { message: 'Confirm the new address with the link mailed to it' },
    });
    const [mail] = await mailsTo(context, nextEmail, 'Confirm your new email address');
    const link = mail!.links[0]!;
    expect(link).toMatch(new RegExp(`^${context.suite.baseUrl}/ui/verify-email\\?token=[0-9a-f]{64}$`));

    // Not yet: the old address still signs in, the new one does not; a GET of the link changes nothing.
    expect((await fetch(link)).status).toBe(200);
    expect((await login(context, nextEmail)).status).toBe(401);
    expect((await login(context, oldEmail)).status).toBe(200);

    const confirmed = await post('/auth/verify', { token: tokenOfLink(link) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ message: 'Email verified', email: nextEmail });
    expect((await post('/auth/verify', { token: tokenOfLink(link) })).body).toEqual(INVALID_TOKEN);

    const after = await signIn(context, nextEmail);
    expect(decodeJwt(after.access_token)).toMatchObject({ email: nextEmail, email_verified: true });
    expect((await login(context, oldEmail)).status).toBe(401);
    const [notice] = await mailsTo(context, oldEmail, 'The email address of your account was changed');
    expect(notice!.links).toEqual([]);
  });

  it('answers every error row of interface.md 4.2 with its exact body', async () => {
    const email = newEmail('email-errors');
    const taken = newEmail('taken');
    await register(context, email);
    await register(context, taken);
    const { access_token: token } = await signIn(context, email);

    const anonymous = await post('/auth/change-email', { newEmail: newEmail('x'), password: PASSWORD });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);

    const wrong = await post(
      '/auth/change-email',
      { newEmail: newEmail('x'), password: 'not-my-password' },
      token,
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(INVALID_CREDENTIALS);

    const conflict = await post(
      '/auth/change-email',
      { newEmail: taken.toUpperCase(), password: PASSWORD },
      token,
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({
      error: 'Email change could not be completed',
      statusCode: 409,
      code: 'CONFLICT',
    });

    const invalid = await post('/auth/change-email', { newEmail: 'nope', password: '' }, token);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      ...VALIDATION,
      details: [
        { path: 'newEmail', message: 'must be a valid email address' },
        { path: 'password', message: 'is required' },
      ],
    });

    expect((await post('/auth/verify', { token: 'abc' })).body).toEqual({
      ...VALIDATION,
      details: [{ path: 'token', message: 'must be 64 hexadecimal characters' }],
    });
    const unknown = await post('/auth/verify', { token: 'b'.repeat(64) });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(INVALID_TOKEN);
  });
});
