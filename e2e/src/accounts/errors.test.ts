import { beforeAll, describe, expect, it } from 'vitest';
import { getJson, postJson } from '../support/http.js';
import { useSuite } from '../support/use-suite.js';
import { RESEND_MESSAGE } from '@authz/gateway';

// Every error row of interface.md 4.2, with exact bodies.
const context = useSuite({
  gatewayEnv: { REGISTER_RATE_LIMIT: '15', LOGIN_RATE_LIMIT: '6', TRUST_PROXY: '127.0.0.1' },
});
const password = 'copper-Meadow-signal-58';
const url = context.url;

beforeAll(async () => {
  expect((await postJson(url('/auth/register'), { email: loginEmail, password })).status).toBe(201);
});

let sequence = 0;
const newEmail = () => `errors${Date.now()}-${(sequence += 1)}@example.com`;
const loginEmail = newEmail();
// Each login attempt from its own client address, so only the per-account budget counts.
const fromNewAddress = () => ({ 'x-forwarded-for': `198.51.100.${(sequence += 1) % 250}` });

describe('POST /auth/register', () => {
  it('answers 400 with one detail per rejected field', async () => {
    const missing = await postJson(url('/auth/register'), {});
    expect(missing).toMatchObject({ status: 400 });
    expect(missing.body).toEqual({
      error: 'Validation error',
      code: 'VALIDATION_ERROR',
      statusCode: 400,
      details: [
        { path: 'email', message: 'is required' },
        { path: 'password', message: 'is required' },
      ],
    });
  });

  it('reports a bad address beside a missing password, and every rule identity breaks', async () => {
    const bad = await postJson(url('/auth/register'), { email: 'not-an-email' });
    expect({ status: bad.status, body: bad.body }).toEqual({
      status: 400,
      body: {
        error: 'Validation error',
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        details: [
          { path: 'email', message: 'must be a valid email address' },
          { path: 'password', message: 'is required' },
        ],
      },
    });

    // docs/errors.md: a value of the wrong JSON type stops the body at the gateway, so only
    // the mistyped fields are reported, each once.
    const mistyped = await postJson(url('/auth/register'), {
      email: 'not-an-email',
      password: 12345678,
      realmId: 7,
    });
    expect(mistyped.body).toEqual({
      error: 'Validation error',
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      details: [
        { path: 'password', message: 'must be string' },
        { path: 'realmId', message: 'must be string' },
      ],
    });

    const semantic = await postJson(url('/auth/register'), {
      email: 'not-an-email',
      password: 'short',
      realmId: '00000000-0000-4000-8000-000000000000',
    });
    expect(semantic.body).toEqual({
      error: 'Validation error',
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      details: [
        { path: 'email', message: 'must be a valid email address' },
        { path: 'password', message: 'must be 8 to 128 characters long' },
        { path: 'realmId', message: 'must be the default realm' },
      ],
    });
  });

  it('refuses a malformed address, a weak password and an unknown realm', async () => {
    const badEmail = await postJson(url('/auth/register'), { email: 'not-an-email', password });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'email' }] });

    for (const weak of ['short', 'password123', 'qwertyuiop']) {
      const response = await postJson(url('/auth/register'), { email: newEmail(), password: weak });
      expect(response.status, weak).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'password' }] });
    }
    const sameAsLocalPart = await postJson(url('/auth/register'), {
      email: 'samepassword1@example.com',
      password: 'samepassword1',
    });
    expect(sameAsLocalPart.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'password' }] });

    const realm = await postJson(url('/auth/register'), {
      email: newEmail(),
      password,
      realmId: '00000000-0000-4000-8000-000000000000',
    });
    expect(realm.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'realmId' }] });
  });

  it('answers 409 with a generic body for a taken address, whatever its case', async () => {
    const email = newEmail();
    expect((await postJson(url('/auth/register'), { email, password })).status).toBe(201);
    const taken = await postJson(url('/auth/register'), { email: email.toUpperCase(), password });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({
      error: 'Registration could not be completed',
      statusCode: 409,
      code: 'CONFLICT',
    });
    expect(JSON.stringify(taken.body).toLowerCase()).not.toContain(email.split('@')[0]);
  });

  it('answers 429 once the per-IP registration budget is spent', async () => {
    let status = 0;
    for (let attempt = 0; attempt < 18 && status !== 429; attempt += 1) {
      status = (await postJson(url('/auth/register'), { email: newEmail(), password })).status;
    }
    expect(status).toBe(429);
  });
});

describe('POST /auth/login', () => {
  it('answers unknown email and wrong password with the same 401 body', async () => {
    const unknown = await postJson(
      url('/auth/login'),
      { email: 'nobody-here@example.com', password },
      fromNewAddress(),
    );
    const wrong = await postJson(
      url('/auth/login'),
      { email: loginEmail, password: 'not-the-password-1' },
      fromNewAddress(),
    );
    const expected = { error: 'Invalid email or password', statusCode: 401, code: 'INVALID_CREDENTIALS' };
    expect(unknown).toMatchObject({ status: 401, body: expected });
    expect(wrong).toMatchObject({ status: 401, body: expected });
    expect(JSON.stringify(unknown.body)).toBe(JSON.stringify(wrong.body));
  });

  it('answers 400 for a missing field and 429 once the account budget is spent', async () => {
    const missing = await postJson(url('/auth/login'), { email: newEmail() });
    expect(missing.body).toEqual({
      error: 'Validation error',
      code: 'VALIDATION_ERROR',
      statusCode: 400,
      details: [{ path: 'password', message: expect.any(String) }],
    });
    const target = 'target-account@example.com';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      const attempt = await postJson(
        url('/auth/login'),
        { email: target, password: 'wrong-Password-77' },
        fromNewAddress(),
      );
      statuses.push(attempt.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
  });
});

describe('POST /auth/logout', () => {
  it('answers 401 without a valid bearer token', async () => {
    const expected = { error: 'Unauthorized', statusCode: 401, code: 'UNAUTHORIZED' };
    expect(await postJson(url('/auth/logout'), {})).toMatchObject({ status: 401, body: expected });
    expect(await postJson(url('/auth/logout'), {}, { authorization: 'Basic abc' })).toMatchObject({
      status: 401,
      body: expected,
    });
    expect(await postJson(url('/auth/logout'), {}, { authorization: 'Bearer not.a.jwt' })).toMatchObject({
      status: 401,
      body: expected,
    });
  });
});

describe('GET /auth/verify', () => {
  it('answers 400 VALIDATION_ERROR for a malformed token and 400 INVALID_TOKEN for an unknown one', async () => {
    const malformed = await getJson(url('/auth/verify?token=xyz'));
    expect(malformed).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', details: [{ path: 'token' }] },
    });
    const missing = await getJson(url('/auth/verify'));
    expect(missing).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', details: [{ path: 'token' }] },
    });
    const unknown = await getJson(url(`/auth/verify?token=${'ab'.repeat(32)}`));
    expect(unknown).toEqual({
      status: 400,
      headers: expect.anything(),
      body: { error: 'Invalid or expired token', statusCode: 400, code: 'INVALID_TOKEN' },
    });
  });
});

describe('POST /auth/resend-verification', () => {
  it('answers 200 for any address and 429 when asked again too soon', async () => {
    const unknown = await postJson(url('/auth/resend-verification'), {
      email: 'never-registered@example.com',
    });
    expect(unknown).toMatchObject({ status: 200, body: { message: RESEND_MESSAGE } });
    const again = await postJson(url('/auth/resend-verification'), { email: 'never-registered@example.com' });
    expect(again.status).toBe(429);
    expect(again.body).toEqual({ error: 'Too many requests', statusCode: 429, code: 'RATE_LIMITED' });
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
