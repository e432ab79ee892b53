import { createHash, randomBytes } from 'node:crypto';
import type { SmtpSink } from '@authz/shared/smtp-sink';
import { Redis } from 'ioredis';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { afterAll, beforeAll, expect } from 'vitest';
import { call, newDeveloper, type ClientView } from './clients.js';
import { basicAuth, newClient, requestToken, type FormField, type TokenResponse } from './tokens.js';
import type { Suite } from './suite.js';
import { useSuite, type UseSuiteOptions } from './use-suite.js';
import {
  parseForms,
  FormBrowser,
  type BrowserResponse,
  type Fields,
  type HtmlForm,
} from '@authz/shared/testing/form-browser';

/** HTTP helpers of the authorization code flow tests (interface.md 4.3, 4.5, 4.6). */
export const REDIRECT_URI = 'https://app.example/callback';
export const PASSWORD = 'amber-Falcon-meadow-27';

/** RFC 6749 section 5.2: a bad, used or expired code or refresh token, told nothing more. */
export const INVALID_GRANT = { error: 'invalid_grant', code: 'INVALID_GRANT', statusCode: 400 };
/** The invalid_grant cases a client can act on carry a description (docs/errors.md). */
const describedInvalidGrant = (error_description: string) => ({ ...INVALID_GRANT, error_description });
export const CODE_REUSED = describedInvalidGrant(
  'The authorization code was already used; the tokens issued for it have been revoked',
);
export const CODE_EXPIRED = describedInvalidGrant('The authorization code has expired');
export const VERIFIER_MISMATCH = describedInvalidGrant('code_verifier does not match the code_challenge');
export const REDIRECT_URI_MISMATCH = describedInvalidGrant(
  'redirect_uri does not match the authorization request',
);
export const REFRESH_TOKEN_REUSED = describedInvalidGrant(
  'The refresh token was already used; every token of its grant has been revoked',
);
export const REFRESH_TOKEN_EXPIRED = describedInvalidGrant('The refresh token has expired');

/** docs/decisions.md #19, byte for byte. */
export const INVALID_CSRF = { error: 'invalid_csrf_token', statusCode: 400, code: 'INVALID_CSRF_TOKEN' };

export interface CodeFlowContext {
  readonly suite: Suite;
  readonly smtp: SmtpSink;
  /** A developer token that owns the clients the tests create. */
  readonly developer: string;
  /** This file's Redis (the services' keys under `redisPrefix`). */
  readonly redis: Redis;
  readonly redisPrefix: string;
  /** This file's database, for looking at what the services stored. */
  readonly databaseUrl: string;
}

/**
 * The per-file fixture of the code flow tests: the whole suite with a mail sink (users verify
 * their address), generous login and registration budgets (every request comes from one IP)
 * and one developer.
 */
export function useCodeFlow(
  gatewayEnv: Record<string, string> = {},
  serviceEnv: Record<string, string> = {},
  suiteOptions: Pick<UseSuiteOptions, 'logger' | 'port'> = {},
): CodeFlowContext {
  const context = useSuite({
    ...suiteOptions,
    smtp: true,
    serviceEnv,
    gatewayEnv: {
      LOGIN_RATE_LIMIT: '1000',
      REGISTER_RATE_LIMIT: '1000',
      REGISTER_CLIENT_RATE_LIMIT: '1000',
      ...gatewayEnv,
    },
  });
  let developer: string | undefined;
  let redis: Redis | undefined;
  beforeAll(async () => {
    developer = (await newDeveloper(context.suite)).token;
    redis = new Redis(context.environment.redisUrl, { lazyConnect: true });
  });
  afterAll(async () => {
    await redis?.quit();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useCodeFlow(): available once beforeAll has run');
    return value;
  };
  return {
    get suite() {
      return context.suite;
    },
    get smtp() {
      return context.smtp;
    },
    get developer() {
      return ready(developer);
    },
    get redis() {
      return ready(redis);
    },
    get redisPrefix() {
      return context.environment.redisPrefix;
    },
    get databaseUrl() {
      return context.databaseUrl;
    },
  };
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

let sequence = 0;

/** Registers a user; `verified` also follows the emailed link (interface.md 4.2). */
export async function newUser(flow: CodeFlowContext, { verified = false } = {}): Promise<TestUser> {
  const email = `user${Date.now()}-${(sequence += 1)}@example.com`;
  const registered = await call<{ id: string }>(flow.suite, 'POST', '/auth/register', {
    body: { email, password: PASSWORD },
  });
  expect(registered.status).toBe(201);
  if (verified) await verifyEmail(flow, email);
  return { id: registered.body.id, email, password: PASSWORD };
}

/** Confirms the link of the verification mail sent to `email`, as its page's button does. */
export async function verifyEmail(flow: CodeFlowContext, email: string): Promise<void> {
  const mail = await flow.smtp.waitFor((message) => message.envelopeTo.includes(email));
  const link = mail.links.find((candidate) => candidate.includes('/ui/verify-email?token='));
  const token = new URL(link!).searchParams.get('token');
  const verified = await fetch(new URL('/auth/verify', link), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(verified.status).toBe(200);
}

export type AppClient = ClientView & { confidential: boolean };

/** A web app through the developer API: confidential (Basic) unless `tokenEndpointAuthMethod: none`. */
export async function newAppClient(
  flow: CodeFlowContext,
  overrides: Record<string, unknown> = {},
): Promise<AppClient> {
  const body = {
    name: 'Photo app',
    redirectUris: [REDIRECT_URI],
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    tokenEndpointAuthMethod: 'client_secret_basic',
    ...overrides,
  };
  const created = await newClient(flow.suite, flow.developer, body);
  return { ...created, confidential: body.tokenEndpointAuthMethod !== 'none' };
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

/** RFC 7636 section 4.1-4.2: a 43-character verifier and its S256 challenge. */
export function newPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizationRequest {
  client: AppClient;
  scope?: string;
  state?: string;
  nonce?: string;
  pkce?: Pkce;
  /** Extra or replacing parameters, appended as sent. */
  extra?: Fields;
}

/** The parameters of a valid authorization request (RFC 6749 4.1.1, RFC 7636 4.3, OIDC 3.1.2.1). */
export function authorizationParameters({
  client,
  scope = 'openid email',
  state = 'af0ifjsldkj',
  nonce = 'n-0S6_WzA2Mj',
  pkce = newPkce(),
  extra = [],
}: AuthorizationRequest): Fields {
  return [
    ['response_type', 'code'],
    ['client_id', client.clientId],
    ['redirect_uri', REDIRECT_URI],
    ['scope', scope],
    ['state', state],
    ['nonce', nonce],
    ['code_challenge', pkce.challenge],
    ['code_challenge_method', 'S256'],
    ...extra,
  ];
}

export function authorizeUrl(suite: Suite, parameters: Fields): string {
  return `${suite.baseUrl}/oauth/authorize?${new URLSearchParams(parameters).toString()}`;
}

/** The only form of a hosted page that matches `predicate`. */
export function formOf(page: BrowserResponse, url: string, predicate: (form: HtmlForm) => boolean): HtmlForm {
  const forms = parseForms(page.text, url).filter(predicate);
  expect(forms).toHaveLength(1);
  return forms[0]!;
}

const isLoginForm = (form: HtmlForm) => form.inputs.some((input) => input.type === 'password');
const isConsentForm = (form: HtmlForm) => form.buttons.some((button) => button.text === 'Allow');

/** GET the sign-in page at `loginUrl`: its one form with a password input. */
export async function openLoginForm(browser: FormBrowser, loginUrl: string): Promise<HtmlForm> {
  const page = await browser.get(loginUrl);
  expect(page.status).toBe(200);
  return formOf(page, loginUrl, isLoginForm);
}

/** GET the sign-in page at `loginUrl` and submit it (docs/contract.md "Hosted pages"). */
export async function submitLogin(
  browser: FormBrowser,
  loginUrl: string,
  user: Pick<TestUser, 'email' | 'password'>,
  tamper: (fields: Fields) => Fields = (fields) => fields,
): Promise<BrowserResponse> {
  const form = await openLoginForm(browser, loginUrl);
  return browser.post(form.action, tamper(loginFields(form, user)));
}

/** What the browser posts: the form's hidden fields and the typed-in credentials. */
export function loginFields(form: HtmlForm, user: Pick<TestUser, 'email' | 'password'>): Fields {
  return [...form.hidden, ['email', user.email], ['password', user.password]];
}

/** GET the consent page at `consentUrl` and press Allow or Deny. */
export async function submitConsent(
  browser: FormBrowser,
  consentUrl: string,
  decision: 'allow' | 'deny',
  tamper: (fields: Fields) => Fields = (fields) => fields,
): Promise<BrowserResponse> {
  const page = await browser.get(consentUrl);
  expect(page.status).toBe(200);
  const form = formOf(page, consentUrl, isConsentForm);
  const fields: Fields = [...form.hidden.filter(([name]) => name !== 'decision'), ['decision', decision]];
  return browser.post(form.action, tamper(fields));
}

export interface AuthorizationResult {
  /** The redirect back to the client. */
  callback: URL;
  /** Its query as an object (error redirects are compared whole). */
  query: Record<string, string>;
  code: string | undefined;
  verifier: string;
  /** The hosted pages the browser went through, in order. */
  prompts: ('login' | 'consent')[];
}

/**
 * Walks the whole flow as agreed by the team: authorize -> (login page -> POST login -> resume)
 * -> (consent page -> decision) -> the client's redirect URI. Fails on any unexpected hop.
 */
export async function completeAuthorization(
  flow: CodeFlowContext,
  browser: FormBrowser,
  user: Pick<TestUser, 'email' | 'password'>,
  request: AuthorizationRequest,
  {
    decision = 'allow',
    startUrl,
  }: {
    decision?: 'allow' | 'deny';
    /** Where the browser starts instead of the request's own URL (a pushed request's, RFC 9126). */
    startUrl?: string;
  } = {},
): Promise<AuthorizationResult> {
  const pkce = request.pkce ?? newPkce();
  const base = flow.suite.baseUrl;
  const prompts: AuthorizationResult['prompts'] = [];
  const first = await browser.get(
    startUrl ?? authorizeUrl(flow.suite, authorizationParameters({ ...request, pkce })),
  );
  expect(first.status).toBe(302);
  let location = first.location!;
  for (let hop = 0; !location.startsWith(`${REDIRECT_URI}?`); hop += 1) {
    if (hop > 3) throw new Error(`authorization did not come back to the client: ${location}`);
    if (location.startsWith(`${base}/ui/login?`)) {
      prompts.push('login');
      const signedIn = await submitLogin(browser, location, user);
      expect(signedIn.status).toBe(303);
      expect(signedIn.location).toMatch(new RegExp(`^${base}/ui/resume/[^/?#]+$`));
      const resumed = await browser.get(signedIn.location!);
      expect([302, 303]).toContain(resumed.status);
      location = resumed.location!;
    } else if (location.startsWith(`${base}/ui/consent?`)) {
      prompts.push('consent');
      const decided = await submitConsent(browser, location, decision);
      expect(decided.status).toBe(303);
      location = decided.location!;
    } else {
      throw new Error(`unexpected hop: ${location}`);
    }
  }
  const callback = new URL(location);
  const query = Object.fromEntries(callback.searchParams);
  return { callback, query, code: query.code, verifier: pkce.verifier, prompts };
}

/** The client's own credentials at the token endpoint: Basic, or client_id alone for public clients. */
export function clientCredentials(client: AppClient): {
  fields: FormField[];
  headers: Record<string, string>;
} {
  return client.confidential
    ? { fields: [], headers: basicAuth(client.clientId, client.clientSecret!) }
    : { fields: [['client_id', client.clientId]], headers: {} };
}

/** RFC 6749 section 4.1.3 with RFC 7636 section 4.5. */
export function redeemCode(
  flow: CodeFlowContext,
  client: AppClient,
  code: string,
  verifier: string,
): Promise<TokenResponse> {
  const { fields, headers } = clientCredentials(client);
  return requestToken(
    flow.suite,
    [
      ['grant_type', 'authorization_code'],
      ['code', code],
      ['redirect_uri', REDIRECT_URI],
      ['code_verifier', verifier],
      ...fields,
    ],
    headers,
  );
}

/** RFC 6749 section 6. */
export function refresh(
  flow: CodeFlowContext,
  client: AppClient,
  refreshToken: string,
): Promise<TokenResponse> {
  const { fields, headers } = clientCredentials(client);
  return requestToken(
    flow.suite,
    [['grant_type', 'refresh_token'], ['refresh_token', refreshToken], ...fields],
    headers,
  );
}

/** Signs `user` in and authorizes `client`: the tokens of a fresh, consented authorization. */
export async function authorizedTokens(
  flow: CodeFlowContext,
  client: AppClient,
  user: TestUser,
  request: Omit<AuthorizationRequest, 'client'> = {},
  browser = new FormBrowser(),
): Promise<Record<string, unknown>> {
  const result = await completeAuthorization(flow, browser, user, { client, ...request });
  const tokens = await redeemCode(flow, client, result.code!, result.verifier);
  expect(tokens.status).toBe(200);
  return tokens.body;
}

/** OIDC Core 3.1.3.7: an ID token verified against the published JWKS, issuer and audience. */
export async function verifyIdToken(
  flow: CodeFlowContext,
  client: AppClient,
  token: string,
): Promise<JWTPayload> {
  const jwks = createRemoteJWKSet(new URL(`${flow.suite.baseUrl}/.well-known/jwks.json`));
  const { payload, protectedHeader } = await jwtVerify(token, jwks, {
    issuer: flow.suite.baseUrl,
    audience: client.clientId,
    algorithms: ['EdDSA'],
  });
  expect(protectedHeader.alg).toBe('EdDSA');
  return payload;
}
