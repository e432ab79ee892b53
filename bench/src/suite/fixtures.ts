import { randomBytes } from 'node:crypto';

/** A confidential client_credentials client of the suite, and one token it obtained. */
export interface MachineClient {
  clientId: string;
  /** `Basic ...` (RFC 6749 section 2.3.1: form-encoded, then base64). */
  authorization: string;
  accessToken: string;
}

export const CLIENT_CREDENTIALS_BODY = 'grant_type=client_credentials&scope=profile';

/** A developer account, signed in: its token creates clients through the developer API. */
export interface Developer {
  token: string;
}

/** What a developer does before creating clients: register and sign in (interface.md 4.2). */
export async function createDeveloper(baseUrl: string): Promise<Developer> {
  const email = `bench-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const password = `${randomBytes(9).toString('base64url')}-Bench-7`;
  await expectStatus(
    await postJson(baseUrl, '/auth/register', { email, password }),
    201,
    'POST /auth/register',
  );
  const login = await postJson(baseUrl, '/auth/login', { email, password });
  const { access_token: token } = (await expectStatus(login, 200, 'POST /auth/login')) as {
    access_token: string;
  };
  return { token };
}

/**
 * What a developer does before any machine traffic: create a client_credentials client
 * (interface.md 4.7), then one token request to check it works.
 */
export async function createMachineClient(baseUrl: string, developer: Developer): Promise<MachineClient> {
  const created = await postJson(
    baseUrl,
    '/api/clients/',
    {
      name: 'Benchmark machine client',
      grantTypes: ['client_credentials'],
      responseTypes: [],
      scopes: ['profile'],
      tokenEndpointAuthMethod: 'client_secret_basic',
    },
    developer.token,
  );
  const client = (await expectStatus(created, 201, 'POST /api/clients/')) as {
    clientId: string;
    clientSecret: string;
  };
  const authorization = basicAuthorization(client.clientId, client.clientSecret);
  const accessToken = await requestClientCredentialsToken(`${baseUrl}/oauth/token`, authorization);
  return { clientId: client.clientId, authorization, accessToken };
}

export function basicAuthorization(clientId: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
}

/** One token request; fails unless it is 200 with an EdDSA-signed JWT, as both servers must issue. */
export async function requestClientCredentialsToken(
  tokenUrl: string,
  authorization: string,
): Promise<string> {
  const response = await fetch(tokenUrl, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: CLIENT_CREDENTIALS_BODY,
  });
  const { access_token: token } = (await expectStatus(response, 200, `POST ${tokenUrl}`)) as {
    access_token?: string;
  };
  const alg = token ? jwtHeader(token).alg : undefined;
  if (alg !== 'EdDSA')
    throw new Error(`POST ${tokenUrl} issued no EdDSA JWT access token (alg ${String(alg)})`);
  return token!;
}

export function jwtHeader(token: string): Record<string, unknown> {
  try {
    return JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
  } catch {
    return {};
  }
}

export function postJson(baseUrl: string, path: string, body: unknown, bearer?: string): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
    },
    body: JSON.stringify(body),
  });
}

export async function expectStatus(response: Response, status: number, what: string): Promise<unknown> {
  const text = await response.text();
  if (response.status !== status)
    throw new Error(`${what} answered ${response.status}: ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}
