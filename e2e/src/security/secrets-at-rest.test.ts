import { createHash } from 'node:crypto';
import { SESSION_COOKIE } from '@authz/shared/protocol';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  completeAuthorization,
  newAppClient,
  PASSWORD,
  redeemCode,
  refresh,
  useCodeFlow,
} from '../support/code-flow.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { call } from '../support/clients.js';
import { machineClient, newClient } from '../support/tokens.js';

// docs/security.md "Secrets at rest" (docs/architecture.md "Data and secrets"): after every flow
// that hands out a secret, no table of any schema holds one in clear, nor its unkeyed SHA-256:
// only keyed hashes (SECRET_HASH_KEY) and private keys encrypted under KEY_ENCRYPTION_KEY.
const flow = useCodeFlow();

/** Every row of every table of the database, as JSON text. */
async function everyRow(): Promise<string> {
  const sql = new pg.Client({ connectionString: flow.databaseUrl });
  await sql.connect();
  try {
    const tables = await sql.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    const rows: string[] = [];
    for (const { schema, name } of tables.rows) {
      const result = await sql.query<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM "${schema}"."${name}" t`,
      );
      rows.push(`${schema}.${name}:`, ...result.rows.map(({ row }) => row));
    }
    return rows.join('\n');
  } finally {
    await sql.end();
  }
}

const sha256 = (value: string) => createHash('sha256').update(value).digest();

describe('secrets at rest', () => {
  it('after a full flow, the database holds no secret in clear or unkeyed-hashed', async () => {
    const { suite } = flow;
    // Register and verify (interface.md 4.2): the password and the emailed verification token.
    const email = `rest${Date.now()}@example.com`;
    expect(
      (await call(suite, 'POST', '/auth/register', { body: { email, password: PASSWORD } })).status,
    ).toBe(201);
    const mail = await flow.smtp.waitFor((message) => message.envelopeTo.includes(email));
    const link = mail.links.find((candidate) => candidate.includes('/ui/verify-email?token='))!;
    const verificationToken = new URL(link).searchParams.get('token')!;
    expect((await fetch(`${suite.baseUrl}/auth/verify?token=${verificationToken}`)).status).toBe(200);
    // First-party login and a refresh (docs/decisions.md #2, #7).
    const login = await call<{ access_token: string; refresh_token: string }>(suite, 'POST', '/auth/login', {
      body: { email, password: PASSWORD },
    });
    const rotated = await fetch(`${suite.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: login.body.refresh_token,
        client_id: 'authz-first-party',
      }),
    });
    const { refresh_token: rotatedRefreshToken } = (await rotated.json()) as { refresh_token: string };
    // A confidential client, its regenerated secret, a machine client's API key (interface.md 4.7, 4.8).
    const webApp = await newAppClient(flow);
    const regenerated = await call<{ clientSecret: string }>(
      suite,
      'POST',
      `/api/clients/${webApp.id}/regenerate-secret`,
      { token: flow.developer },
    );
    const client = { ...webApp, clientSecret: regenerated.body.clientSecret };
    const machine = await newClient(suite, flow.developer, machineClient);
    const apiKey = await call<{ key: string }>(suite, 'POST', `/api/clients/${machine.id}/api-keys`, {
      token: flow.developer,
      body: { name: 'ci' },
    });
    const registered = await call<{ client_secret: string }>(suite, 'POST', '/oauth/register', {
      body: { redirect_uris: ['https://app.example/callback'] },
    });
    // The code flow: a browser session, a consent, a code, its tokens and a rotation (interface.md 4.3,
    // 4.5). The PKCE verifier is not listed: its S256 challenge is stored by design (RFC 7636).
    const browser = new FormBrowser();
    const user = { email, password: PASSWORD };
    const authorized = await completeAuthorization(flow, browser, user, {
      client,
      scope: 'openid email offline_access',
    });
    const tokens = await redeemCode(flow, client, authorized.code!, authorized.verifier);
    expect(tokens.status).toBe(200);
    const refreshed = await refresh(flow, client, tokens.body.refresh_token as string);
    expect(refreshed.status).toBe(200);

    const secrets: Record<string, string> = {
      password: PASSWORD,
      'verification token': verificationToken,
      'first-party access token': login.body.access_token,
      'first-party refresh token': login.body.refresh_token,
      'rotated first-party refresh token': rotatedRefreshToken,
      'first client secret': webApp.clientSecret!,
      'regenerated client secret': client.clientSecret,
      'machine client secret': machine.clientSecret!,
      'API key': apiKey.body.key,
      'registered client secret': registered.body.client_secret,
      'session cookie': browser.jar.get(SESSION_COOKIE)!,
      'authorization code': authorized.code!,
      'code-flow access token': tokens.body.access_token as string,
      'code-flow refresh token': tokens.body.refresh_token as string,
      'rotated code-flow refresh token': refreshed.body.refresh_token as string,
      'ID token': tokens.body.id_token as string,
    };
    for (const [what, value] of Object.entries(secrets)) expect(value, what).toMatch(/^.{16,}$/);

    const stored = await everyRow();
    expect(stored).toContain(email);
    for (const [what, value] of Object.entries(secrets)) {
      for (const form of [value, sha256(value).toString('hex'), sha256(value).toString('base64url')]) {
        expect(stored.includes(form), `${what} at rest`).toBe(false);
      }
    }
    // Signing keys: only public JWKs in clear; the private ones are AES-GCM envelopes (docs/tokens.md #5).
    expect(stored).not.toMatch(/PRIVATE KEY|"d":"/);
    expect(stored).toMatch(/oauth\.signing_keys:\n.*"v1\./);
  }, 60_000);
});
