import { decodeJwt } from 'jose';
import pg from 'pg';
import type { Suite } from './suite.js';

/** Helpers of the account lifecycle tests (interface.md 4.10): sign-ups, sessions, row scans. */

export interface AccountResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  /** null for an empty body (204). */
  body: T;
}

/** A JSON call through the gateway with an optional Bearer token and User-Agent. */
export async function accountCall<T = Record<string, unknown>>(
  suite: Suite,
  method: string,
  path: string,
  {
    token,
    body,
    userAgent,
    headers: extra = {},
  }: { token?: string; body?: unknown; userAgent?: string; headers?: Record<string, string> } = {},
): Promise<AccountResponse<T>> {
  const headers: Record<string, string> = { ...extra };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (userAgent !== undefined) headers['user-agent'] = userAgent;
  const response = await fetch(`${suite.baseUrl}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}

export const ACCOUNT_PASSWORD = 'amber-Falcon-meadow-27';

export interface SignedUpUser {
  email: string;
  password: string;
  userId: string;
}

export interface FirstPartySignIn {
  accessToken: string;
  refreshToken: string;
  /** The `sid` of the access token: the identity session. */
  sessionId: string;
}

let sequence = 0;

/** Registers a fresh account through POST /auth/register. */
export async function signUp(suite: Suite, prefix = 'account'): Promise<SignedUpUser> {
  const email = `${prefix}${Date.now()}-${(sequence += 1)}@example.com`;
  const registered = await accountCall<{ id: string }>(suite, 'POST', '/auth/register', {
    body: { email, password: ACCOUNT_PASSWORD },
  });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status}`);
  return { email, password: ACCOUNT_PASSWORD, userId: registered.body.id };
}

/** POST /auth/login with the given User-Agent. */
export async function signIn(
  suite: Suite,
  user: Pick<SignedUpUser, 'email' | 'password'>,
  userAgent?: string,
): Promise<FirstPartySignIn> {
  const login = await accountCall<{ access_token: string; refresh_token: string }>(
    suite,
    'POST',
    '/auth/login',
    {
      body: { email: user.email, password: user.password },
      ...(userAgent === undefined ? {} : { userAgent }),
    },
  );
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  const { sid } = decodeJwt(login.body.access_token);
  return {
    accessToken: login.body.access_token,
    refreshToken: login.body.refresh_token,
    sessionId: String(sid),
  };
}

/** The first-party refresh_token grant (docs/tokens.md #1). */
export async function refreshFirstParty(
  suite: Suite,
  refreshToken: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${suite.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: 'authz-first-party',
    }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The data-owning services' PostgreSQL schemas (docs/prisma.md). */
export const SERVICE_SCHEMAS = ['identity', 'oauth', 'clients', 'wallet'] as const;

export interface RowMention {
  table: string;
  column: string;
  value: string;
}

/**
 * Every row of every table of the suite's schemas (apart from the migrations tables) whose
 * column, read as text, contains one of `needles` (case-insensitively): how a test shows that
 * nothing of a user is left anywhere.
 */
export async function rowsMentioning(databaseUrl: string, needles: readonly string[]): Promise<RowMention[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const columns = await client.query<{ table_schema: string; table_name: string; column_name: string }>(
      `SELECT c.table_schema, c.table_name, c.column_name
         FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE c.table_schema = ANY($1) AND t.table_type = 'BASE TABLE'
          AND c.table_name <> '_prisma_migrations'
        ORDER BY 1, 2, 3`,
      [SERVICE_SCHEMAS],
    );
    if (columns.rows.length === 0) throw new Error('no tables found: wrong database?');
    const found: RowMention[] = [];
    for (const { table_schema, table_name, column_name } of columns.rows) {
      const table = `"${table_schema}"."${table_name}"`;
      const column = `"${column_name}"`;
      const rows = await client.query<{ value: string }>(
        `SELECT ${column}::text AS value FROM ${table}
          WHERE ${column}::text ILIKE ANY($1)`,
        [needles.map((needle) => `%${needle}%`)],
      );
      for (const { value } of rows.rows)
        found.push({ table: `${table_schema}.${table_name}`, column: column_name, value });
    }
    return found;
  } finally {
    await client.end();
  }
}

/** One SQL query on the test file's database. */
export async function querySql<T extends pg.QueryResultRow>(
  databaseUrl: string,
  sql: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}
