import { describe, expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';
import { adminCall, newAccount, newAdmin, type AuditEventView } from '../support/admin-scenes.js';

// interface.md 4.15 GET /admin/audit-events: newest first, the admin's own actions included,
// filters and keyset pages (docs/admin-api.md #6, #8).
const context = useSuite({ gatewayEnv: { LOGIN_RATE_LIMIT: '1000', REGISTER_RATE_LIMIT: '1000' } });

async function events(query: string) {
  const response = await adminCall<{ events: AuditEventView[]; nextCursor: string | null }>(
    context.suite,
    admin!,
    'GET',
    `/admin/audit-events?${query}`,
  );
  expect(response.status).toBe(200);
  return response.body;
}

let admin: Awaited<ReturnType<typeof newAdmin>> | undefined;

describe('GET /admin/audit-events', () => {
  it("lists newest first, with the admin's own actions naming the admin", async () => {
    admin = await newAdmin(context.suite, context.databaseUrl);
    const user = await newAccount(context.suite);
    const since = Date.now();
    await adminCall(context.suite, admin, 'PATCH', `/admin/users/${user.id}`, { emailVerified: true });
    await adminCall(context.suite, admin, 'POST', `/admin/users/${user.id}/sessions/revoke`);

    const latest = await events('limit=2');
    expect(latest.events.map((event) => [event.type, event.actorUserId, event.details])).toEqual([
      ['admin_sessions_revoked', admin.id, { targetUserId: user.id, endedSessions: '1' }],
      ['admin_email_verified_set', admin.id, { targetUserId: user.id, emailVerified: true }],
    ]);
    expect(latest.events[0]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: 'admin_sessions_revoked',
      actorUserId: admin.id,
      ip: '127.0.0.1',
      userAgent: expect.any(String),
      details: { targetUserId: user.id, endedSessions: '1' },
      occurredAt: expect.any(Number),
    });
    expect(latest.events[0]!.occurredAt).toBeGreaterThanOrEqual(since);
    expect(latest.nextCursor).toEqual(expect.any(String));

    // The user's own history and what admins did to them, newest first.
    const ofUser = await events(`userId=${user.id}`);
    expect(ofUser.events.map((event) => event.type)).toEqual([
      'admin_sessions_revoked',
      'admin_email_verified_set',
      'login_success',
      'registration',
    ]);
    expect((await events(`userId=${user.id}&since=${since}`)).events).toHaveLength(2);
    expect((await events(`userId=${user.id}&type=registration`)).events.map((event) => event.type)).toEqual([
      'registration',
    ]);
  });

  it('pages newest first through every event without gaps or repeats', async () => {
    admin ??= await newAdmin(context.suite, context.databaseUrl);
    for (let i = 0; i < 3; i += 1) await newAccount(context.suite);
    const all: AuditEventView[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: { events: AuditEventView[]; nextCursor: string | null } = await events(
        `limit=3&cursor=${encodeURIComponent(cursor)}`,
      );
      all.push(...page.events);
      cursor = page.nextCursor;
    }
    const ids = all.map((event) => BigInt(event.id));
    expect(new Set(ids).size).toBe(ids.length);
    const times = all.map((event) => event.occurredAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const single = await events('limit=100');
    expect(single.events.map((event) => event.id)).toEqual(all.map((event) => event.id).slice(0, 100));
  });
});
