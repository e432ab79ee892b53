import { randomUUID } from 'node:crypto';
import { openTestPool } from '@authz/shared/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';
import { adminCall, newAdmin, type Account, type AdminUserView } from '../support/admin-scenes.js';

// interface.md 4.15 GET /admin/users: search and keyset pagination (docs/admin-api.md #6) over
// 250 accounts written straight into identity's table (sign-up would hash 250 passwords).
const context = useSuite({ gatewayEnv: { LOGIN_RATE_LIMIT: '1000', REGISTER_RATE_LIMIT: '1000' } });
let sql: pg.Pool;
let admin: Account;
const batch = `bulk${Date.now()}`;

/** Inserts `count` accounts named `${prefix}-<n>@example.com`; pairs share a creation time. */
async function insertUsers(prefix: string, count: number, from = 0): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO identity.users (id, email, email_lower, realm_id, name, created_at)
     SELECT gen_random_uuid(), $1 || '-' || n || '@example.com', lower($1) || '-' || n || '@example.com',
            (SELECT id FROM identity.realms WHERE is_default), 'Bulk Person ' || n,
            date_trunc('milliseconds', clock_timestamp()) + ((n / 2) * interval '1 millisecond')
     FROM generate_series($2::int, $2::int + $3::int - 1) AS n
     RETURNING id::text`,
    [prefix, from, count],
  );
  return rows.map((row) => row.id);
}

async function page(query: string) {
  const response = await adminCall<{ users: AdminUserView[]; nextCursor: string | null }>(
    context.suite,
    admin,
    'GET',
    `/admin/users?${query}`,
  );
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return response.body;
}

beforeAll(async () => {
  sql = openTestPool(context.databaseUrl, 2);
  admin = await newAdmin(context.suite, context.databaseUrl);
});

afterAll(async () => {
  await sql?.end();
});

describe('GET /admin/users', () => {
  it('pages through 250 accounts: disjoint, complete and stable while accounts are added', async () => {
    const original = await insertUsers(batch, 250);
    const first = await page(`query=${batch}&limit=100`);
    expect(first.users).toHaveLength(100);
    expect(first.nextCursor).toEqual(expect.any(String));

    // Accounts created between two pages come after every page already read.
    const added = await insertUsers(batch, 30, 1000);
    const seen = [...first.users];
    let cursor = first.nextCursor;
    const sizes = [first.users.length];
    while (cursor !== null) {
      const next = await page(`query=${batch}&limit=100&cursor=${encodeURIComponent(cursor)}`);
      seen.push(...next.users);
      sizes.push(next.users.length);
      cursor = next.nextCursor;
    }
    expect(sizes).toEqual([100, 100, 80]);
    const ids = seen.map((user) => user.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set([...original, ...added]));
    // Oldest first by (createdAt, id).
    const order = seen.map((user) => [user.createdAt, user.id] as const);
    const sorted = [...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
    expect(order).toEqual(sorted);
    expect(ids.slice(250)).toEqual(expect.arrayContaining(added));
  });

  it('defaults to 50 per page and lists every account without a query', async () => {
    const { rows } = await sql.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM identity.users WHERE deleting_at IS NULL',
    );
    const first = await page('');
    expect(first.users).toHaveLength(Math.min(50, rows[0]!.count));
    let total = first.users.length;
    let cursor = first.nextCursor;
    while (cursor !== null) {
      const next = await page(`cursor=${encodeURIComponent(cursor)}`);
      total += next.users.length;
      cursor = next.nextCursor;
    }
    expect(total).toBe(rows[0]!.count);
  });

  it('finds accounts by part of the address or the name, case-insensitively, and by id', async () => {
    const prefix = `find${Date.now()}`;
    const [id] = await insertUsers(prefix, 3);
    const byAddress = await page(`query=${prefix.toUpperCase()}-1@EXAMPLE`);
    expect(byAddress).toEqual({
      users: [
        {
          id: expect.any(String),
          email: `${prefix}-1@example.com`,
          emailVerified: false,
          name: 'Bulk Person 1',
          disabled: false,
          disabledAt: null,
          admin: false,
          createdAt: expect.any(Number),
          updatedAt: null,
        },
      ],
      nextCursor: null,
    });
    const byId = await page(`query=${id}`);
    expect(byId.users.map((user) => user.id)).toEqual([id]);
    expect((await page(`query=${randomUUID()}`)).users).toEqual([]);
    // `%` and `_` are characters, not patterns: no address here holds them.
    expect((await page('query=%25')).users).toEqual([]);
    expect((await page('query=_')).users).toEqual([]);
    const single = await adminCall<AdminUserView>(context.suite, admin, 'GET', `/admin/users/${admin.id}`);
    expect(single.body).toMatchObject({ id: admin.id, email: admin.email, admin: true, disabled: false });
  });
});
