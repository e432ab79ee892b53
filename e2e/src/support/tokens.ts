import { createRemoteJWKSet, jwtVerify, type JWTVerifyResult } from 'jose';
import { expect, vi } from 'vitest';
import { call, createClient, type ClientView } from './clients.js';
import type { Suite } from './suite.js';

/** HTTP helpers of the token endpoint tests (interface.md 4.3, 5). */
export interface TokenResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A form field; `resource` may repeat (RFC 8707), so fields are pairs, not an object. */
export type FormField = [name: string, value: string];

export async function requestToken(
  suite: Suite,
  fields: FormField[],
  headers: Record<string, string> = {},
): Promise<TokenResponse> {
  const response = await fetch(`${suite.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** RFC 6749 section 2.3.1: each part form-urlencoded, joined by ':', then Base64. */
export function basicAuth(clientId: string, secret: string): Record<string, string> {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  const credentials = Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64');
  return { authorization: `Basic ${credentials}` };
}

/** Verifies an access token as a resource server would: the published JWKS, iss and typ. */
export function verifyAtJwks(suite: Suite, token: string): Promise<JWTVerifyResult> {
  const jwks = createRemoteJWKSet(new URL(`${suite.baseUrl}/.well-known/jwks.json`));
  return jwtVerify(token, jwks, { issuer: suite.baseUrl, typ: 'at+jwt' });
}

/** interface.md 7 and docs/decisions.md #21: client authentication failures are the bare token. */
export const INVALID_CLIENT = { error: 'invalid_client', code: 'INVALID_CLIENT', statusCode: 401 };

/** A machine client (docs/clients.md #2): client_credentials only, no redirect URIs. */
export const machineClient = {
  name: 'Backend',
  grantTypes: ['client_credentials'],
  responseTypes: [],
  scopes: ['profile', 'email'],
  tokenEndpointAuthMethod: 'client_secret_basic',
};

/** Creates a client through the developer API and fails the test on anything but 201. */
export async function newClient(suite: Suite, token: string, body: Record<string, unknown> = machineClient) {
  const created = await createClient(suite, token, body);
  expect(created.status).toBe(201);
  return created.body;
}

/** Waits, within a deadline, until the developer API shows a lastUsedAt (reported in batches). */
export async function waitForLastUsedAt(suite: Suite, token: string, path: string): Promise<number> {
  return vi.waitFor(
    async () => {
      const { body } = await call<ClientView & { lastUsedAt: number | null }>(suite, 'GET', path, { token });
      expect(body.lastUsedAt).toEqual(expect.any(Number));
      return body.lastUsedAt!;
    },
    { timeout: 10_000, interval: 50 },
  );
}

/**
 * The same JWS with its signature's first character changed, so the first signature byte always
 * differs. Replacing the last characters instead is unreliable: the final base64url character
 * carries padding bits, and a signature that already ends in the replacement stays valid.
 */
export function withAlteredSignature(jws: string): string {
  const [header, payload, signature] = jws.split('.');
  return `${header}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
}
