import { decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import pg from 'pg';
import { expect } from 'vitest';
import { REDIRECT_URI, type AppClient } from './code-flow.js';
import { call } from './clients.js';
import { introspect } from './token-management.js';
import { basicAuth, requestToken, type FormField, type TokenResponse } from './tokens.js';
import type { Suite } from './suite.js';

/** HTTP helpers of the token exchange and ID-JAG tests (RFC 8693, docs/decisions.md #12, #13). */
export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
export const ID_JAG_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
export const ID_JAG_PROFILE = 'urn:ietf:params:oauth:grant-profile:id-jag';

/** The bare OAuth error body of interface.md 7 (no error_description). */
export function oauthError(error: string, statusCode = 400) {
  return { error, code: error.toUpperCase(), statusCode };
}

/** The OAuth error body with its description. */
export function describedError(error: string, description: string, statusCode = 400) {
  return { error, error_description: description, code: error.toUpperCase(), statusCode };
}

/** Registers a client through RFC 7591 dynamic registration and fails the test on anything but 201. */
export async function registerClient(suite: Suite, metadata: Record<string, unknown>): Promise<AppClient> {
  const registered = await call<Record<string, unknown>>(suite, 'POST', '/oauth/register', {
    body: { token_endpoint_auth_method: 'client_secret_basic', ...metadata },
  });
  expect(registered.status).toBe(201);
  const { client_id: clientId, client_secret: clientSecret } = registered.body as {
    client_id: string;
    client_secret?: string;
  };
  return {
    ...registered.body,
    id: '',
    clientId,
    ...(clientSecret ? { clientSecret } : {}),
    confidential: clientSecret !== undefined,
  };
}

/** An agent that only exchanges tokens (docs/decisions.md #12): no redirect URIs, no response types. */
export function registerAgent(suite: Suite, metadata: Record<string, unknown> = {}): Promise<AppClient> {
  return registerClient(suite, {
    client_name: 'Calendar agent',
    grant_types: [TOKEN_EXCHANGE],
    response_types: [],
    is_agent: true,
    ...metadata,
  });
}

/** A web app of the code flow that may also obtain ID-JAGs (docs/decisions.md #13). */
export function registerWebApp(suite: Suite, metadata: Record<string, unknown> = {}): Promise<AppClient> {
  return registerClient(suite, {
    client_name: 'Web app',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', TOKEN_EXCHANGE],
    ...metadata,
  });
}

/** POST /oauth/token as `client` (Basic for confidential clients, client_id for public ones). */
export function tokenRequest(suite: Suite, client: AppClient, fields: FormField[]): Promise<TokenResponse> {
  return client.confidential
    ? requestToken(suite, fields, basicAuth(client.clientId, client.clientSecret!))
    : requestToken(suite, [...fields, ['client_id', client.clientId]]);
}

/** RFC 8693 section 2.1: an access token for an access token, with extra or replacing fields. */
export function exchange(
  suite: Suite,
  client: AppClient,
  subjectToken: string,
  extra: FormField[] = [],
): Promise<TokenResponse> {
  const names = new Set(extra.map(([name]) => name));
  const base: FormField[] = [
    ['grant_type', TOKEN_EXCHANGE],
    ['subject_token', subjectToken],
    ['subject_token_type', ACCESS_TOKEN_TYPE],
  ];
  return tokenRequest(suite, client, [...base.filter(([name]) => !names.has(name)), ...extra]);
}

/** RFC 7662 as `client`, which must be confidential. */
export async function introspectAs(suite: Suite, client: AppClient, token: string) {
  const response = await introspect(
    suite,
    [['token', token]],
    basicAuth(client.clientId, client.clientSecret!),
  );
  expect(response.status).toBe(200);
  return response.body!;
}

export function claimsOf(token: unknown): JWTPayload {
  return decodeJwt(token as string);
}

export function headerOf(token: unknown) {
  return decodeProtectedHeader(token as string);
}

/** The delegation events identity recorded (docs/identity.md #14), oldest first. */
export async function auditEvents(databaseUrl: string, type: string): Promise<Record<string, unknown>[]> {
  const sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const { rows } = await sql.query(
      `SELECT actor_user_id::text AS user_id, details FROM identity.audit_events
        WHERE type = $1 ORDER BY id`,
      [type],
    );
    return rows as Record<string, unknown>[];
  } finally {
    await sql.end();
  }
}
