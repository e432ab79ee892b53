import { expect } from 'vitest';
import type { Suite } from './suite.js';

/** HTTP helpers of the developer API tests (interface.md 4.7, 4.8). */
export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = Record<string, unknown>>(
  suite: Suite,
  method: string,
  path: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${suite.baseUrl}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}

let sequence = 0;

/** Registers and logs in a fresh user through the gateway; its access token is a developer token. */
export async function newDeveloper(suite: Suite): Promise<{ token: string; refreshToken: string }> {
  const email = `dev${Date.now()}-${(sequence += 1)}@example.com`;
  const password = 'amber-Falcon-meadow-27';
  const registered = await call(suite, 'POST', '/auth/register', { body: { email, password } });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status}`);
  const login = await call<{ access_token: string; refresh_token: string }>(suite, 'POST', '/auth/login', {
    body: { email, password },
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  return { token: login.body.access_token, refreshToken: login.body.refresh_token };
}

export const UNAUTHORIZED = { error: 'Unauthorized', statusCode: 401, code: 'UNAUTHORIZED' };
export const NOT_FOUND = { error: 'Not found', statusCode: 404, code: 'NOT_FOUND' };
export const REDIRECT_URI_MESSAGE =
  'must be an absolute https URL, or http on 127.0.0.1, [::1] or localhost, without a fragment';

/** interface.md 7 validation envelope. */
export function validationError(details: { path: string; message: string }[]) {
  return { error: 'Validation error', code: 'VALIDATION_ERROR', statusCode: 400, details };
}

export type ClientView = Record<string, unknown> & { id: string; clientId: string; clientSecret?: string };

export const webApp = {
  name: 'Web app',
  redirectUris: ['https://app.example/callback', 'http://127.0.0.1:8080/cb'],
  scopes: ['openid', 'email'],
  tokenEndpointAuthMethod: 'client_secret_basic',
};

/** POST /api/clients/ as `token`'s developer; the web app above unless `body` is given. */
export async function createClient(suite: Suite, token: string, body: Record<string, unknown> = webApp) {
  return call<ClientView>(suite, 'POST', '/api/clients/', { token, body });
}

export function expectedView(overrides: Record<string, unknown>) {
  return {
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    clientId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    description: null,
    redirectUris: [],
    scopes: [],
    grantTypes: ['authorization_code', 'refresh_token'],
    responseTypes: ['code'],
    tokenEndpointAuthMethod: 'none',
    enabled: true,
    requirePkce: true,
    createdAt: expect.any(Number),
    updatedAt: expect.any(Number),
    lastUsedAt: null,
    postLogoutRedirectUris: [],
    backchannelLogoutUri: null,
    backchannelLogoutSessionRequired: false,
    idTokenSignedResponseAlg: 'EdDSA',
    requirePushedAuthorizationRequests: false,
    dpopBoundAccessTokens: false,
    ...overrides,
  };
}
