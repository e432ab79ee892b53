import { describe, expect, it } from 'vitest';
import { bearerChallenge } from '../support/http.js';
import { useSuite } from '../support/use-suite.js';
import {
  adminCall,
  FORBIDDEN,
  newAccount,
  newAdmin,
  NOT_FOUND,
  runGrantAdmin,
  type AuditEventView,
} from '../support/admin-scenes.js';

// interface.md 4.15: who may use the operator API, and the grant-admin command run as the
// operator runs it (a child process on this file's database).
const context = useSuite({ gatewayEnv: { LOGIN_RATE_LIMIT: '1000', REGISTER_RATE_LIMIT: '1000' } });

const ROUTES: [string, string, unknown?][] = [
  ['GET', '/admin/users'],
  ['GET', '/admin/users/00000000-0000-4000-8000-000000000000'],
  ['PATCH', '/admin/users/00000000-0000-4000-8000-000000000000', { disabled: true }],
  ['DELETE', '/admin/users/00000000-0000-4000-8000-000000000000'],
  ['POST', '/admin/users/00000000-0000-4000-8000-000000000000/sessions/revoke'],
  ['POST', '/admin/users/00000000-0000-4000-8000-000000000000/password-reset'],
  ['GET', '/admin/clients'],
  ['PATCH', '/admin/clients/00000000-0000-4000-8000-000000000000', { enabled: false }],
  ['GET', '/admin/audit-events'],
  ['GET', '/admin/signing-keys'],
  ['POST', '/admin/signing-keys/rotate'],
];

describe('access to the operator API', () => {
  it.each(ROUTES)(
    '%s %s: 401 without a token, 403 for a user who is no admin',
    async (method, path, body) => {
      const anonymous = await fetch(context.url(path), {
        method,
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe(bearerChallenge(context.suite.baseUrl));
      expect(await anonymous.json()).toEqual({
        error: 'Unauthorized',
        statusCode: 401,
        code: 'UNAUTHORIZED',
      });

      const user = await newAccount(context.suite);
      const refused = await adminCall(context.suite, user, method, path, body);
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: FORBIDDEN });
    },
  );

  it('a garbage token is 401', async () => {
    const response = await adminCall(context.suite, { accessToken: 'not-a-token' }, 'GET', '/admin/users');
    expect(response.status).toBe(401);
  });

  it('a revoked admin is refused on the very next call with the same token', async () => {
    const admin = await newAdmin(context.suite, context.databaseUrl);
    expect((await adminCall(context.suite, admin, 'GET', '/admin/signing-keys')).status).toBe(200);

    const revoked = await runGrantAdmin(context.databaseUrl, ['--revoke', admin.email]);
    expect(revoked).toEqual({ exitCode: 0, stdout: `admin role revoked from ${admin.email}\n`, stderr: '' });

    const refused = await adminCall(context.suite, admin, 'GET', '/admin/signing-keys');
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: FORBIDDEN });
    // The token itself is still a live first-party token: only the role went.
    expect((await adminCall(context.suite, admin, 'GET', '/auth/me')).status).toBe(200);
  });

  it('ids and page sizes are checked: 400 malformed, 404 unknown, limit at most 100', async () => {
    const admin = await newAdmin(context.suite, context.databaseUrl);
    const malformed = await adminCall(context.suite, admin, 'GET', '/admin/users/not-a-uuid');
    expect({ status: malformed.status, body: malformed.body }).toEqual({
      status: 400,
      body: {
        error: 'Validation error',
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        details: [{ path: 'id', message: 'must be a user id' }],
      },
    });
    const unknown = await adminCall(
      context.suite,
      admin,
      'GET',
      '/admin/users/00000000-0000-4000-8000-000000000000',
    );
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 404, body: NOT_FOUND });
    const tooMany = await adminCall(context.suite, admin, 'GET', '/admin/users?limit=101');
    expect({ status: tooMany.status, body: tooMany.body }).toEqual({
      status: 400,
      body: {
        error: 'Validation error',
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        details: [{ path: 'limit', message: 'must be 1 to 100' }],
      },
    });
    expect((await adminCall(context.suite, admin, 'GET', '/admin/users?limit=100')).status).toBe(200);
    const badCursor = await adminCall(context.suite, admin, 'GET', '/admin/users?cursor=xyz');
    expect(badCursor.body).toMatchObject({
      details: [{ path: 'cursor', message: 'is not a cursor of this list' }],
    });
    const emptyPatch = await adminCall(context.suite, admin, 'PATCH', `/admin/users/${admin.id}`, {});
    expect(emptyPatch.status).toBe(400);
    const unknownClient = await adminCall(
      context.suite,
      admin,
      'PATCH',
      '/admin/clients/00000000-0000-4000-8000-000000000000',
      { enabled: false },
    );
    expect({ status: unknownClient.status, body: unknownClient.body }).toEqual({
      status: 404,
      body: NOT_FOUND,
    });
    // An admin cannot lock themselves out.
    const self = await adminCall(context.suite, admin, 'PATCH', `/admin/users/${admin.id}`, {
      disabled: true,
    });
    expect({ status: self.status, body: self.body }).toEqual({
      status: 409,
      body: { error: 'An admin cannot disable their own account', statusCode: 409, code: 'CONFLICT' },
    });
  });
});

describe('node apps/identity/dist/grant-admin.js', () => {
  it('explains its usage (exit 2), names an unknown address (exit 1) and is idempotent', async () => {
    const usage = 'usage: DATABASE_URL=... grant-admin.js [--revoke] <email>\n';
    expect(await runGrantAdmin(context.databaseUrl, [])).toEqual({ exitCode: 2, stdout: '', stderr: usage });
    expect(await runGrantAdmin(undefined, ['someone@example.com'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: usage,
    });
    expect(await runGrantAdmin(context.databaseUrl, ['nobody-here@example.com'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'no account has the address nobody-here@example.com\n',
    });
    expect(await runGrantAdmin(context.databaseUrl, ['not an address'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'not an email address: not an address\n',
    });

    const user = await newAccount(context.suite);
    const granted = await runGrantAdmin(context.databaseUrl, [user.email.toUpperCase()]);
    expect(granted).toEqual({
      exitCode: 0,
      stdout: `admin role granted to ${user.email.toUpperCase()}\n`,
      stderr: '',
    });
    expect(await runGrantAdmin(context.databaseUrl, [user.email])).toEqual({
      exitCode: 0,
      stdout: `${user.email} already holds the admin role; nothing changed\n`,
      stderr: '',
    });
    const me = await adminCall<{ admin: boolean }>(context.suite, user, 'GET', `/admin/users/${user.id}`);
    expect(me).toMatchObject({ status: 200, body: { id: user.id, email: user.email, admin: true } });

    // Both changes are in the audit log, without an actor (the operator is no account).
    const events = await adminCall<{ events: AuditEventView[] }>(
      context.suite,
      user,
      'GET',
      `/admin/audit-events?userId=${user.id}&type=admin_role_granted`,
    );
    expect(events.body.events).toEqual([
      {
        id: expect.any(String),
        type: 'admin_role_granted',
        actorUserId: null,
        ip: null,
        userAgent: null,
        details: { targetUserId: user.id, via: 'grant-admin command' },
        occurredAt: expect.any(Number),
      },
    ]);

    expect(await runGrantAdmin(context.databaseUrl, ['--revoke', user.email])).toMatchObject({ exitCode: 0 });
    expect(await runGrantAdmin(context.databaseUrl, ['--revoke', user.email])).toEqual({
      exitCode: 0,
      stdout: `${user.email} does not hold the admin role; nothing changed\n`,
      stderr: '',
    });
  });
});
