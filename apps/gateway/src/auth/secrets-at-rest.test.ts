import pg from 'pg';
import { expect, it } from 'vitest';
import { getJson, postForm, postJson } from '../test/http.js';
import { useSuite } from '../test/use-suite.js';

// ARCHITECTURE.md "Data and secrets": after a whole account flow the database holds no
// plaintext password, token or private key.
const context = useSuite({ smtp: true });

async function everyRowAsText(): Promise<string> {
  const client = new pg.Client({ connectionString: context.databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
        WHERE table_schema IN ('identity', 'oauth', 'clients', 'wallet') AND table_type = 'BASE TABLE'`,
    );
    const dumps: string[] = [];
    for (const { table_schema: schema, table_name: table } of tables.rows) {
      const rows = await client.query(`SELECT row_to_json(t)::text AS row FROM "${schema}"."${table}" t`);
      dumps.push(...rows.rows.map((row: { row: string }) => row.row));
    }
    return dumps.join('\n');
  } finally {
    await client.end();
  }
}

it('stores only hashes and encrypted keys', async () => {
  const email = `rest${Date.now()}@example.com`;
  const password = 'indigo-Thistle-canyon-64';
  expect((await postJson(`${context.suite.baseUrl}/auth/register`, { email, password })).status).toBe(201);
  const mail = await context.smtp.waitFor((message) => message.to.includes(email));
  const link = mail.links.find((candidate) => candidate.includes('/auth/verify?token='))!;
  const verificationToken = new URL(link).searchParams.get('token')!;
  expect((await getJson(link)).status).toBe(200);
  const { body: login } = await postJson<{ access_token: string; refresh_token: string }>(
    `${context.suite.baseUrl}/auth/login`,
    { email, password },
  );
  const { body: refreshed } = await postForm<{ refresh_token: string }>(
    `${context.suite.baseUrl}/oauth/token`,
    {
      grant_type: 'refresh_token',
      refresh_token: login.refresh_token,
      client_id: 'authz-first-party',
    },
  );

  const stored = await everyRowAsText();
  expect(stored).toContain(email);
  for (const secret of [
    password,
    verificationToken,
    login.refresh_token,
    refreshed.refresh_token,
    login.access_token,
  ]) {
    expect(stored).not.toContain(secret);
  }
  expect(stored).not.toMatch(/PRIVATE KEY|"d":"/);
});
