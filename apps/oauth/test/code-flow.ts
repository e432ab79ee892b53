import { createHash, randomBytes } from 'node:crypto';
import type { AuthorizeResponse } from '@authz/proto/oauth/v1/oauth';
import { expect } from 'vitest';
import type { FakeClient } from './fake-clients.js';
import type { FakeBrowserSession, FakeIdentity, FakeUser } from '@authz/shared/testing/fake-identity';
import type { RunningOAuth } from './oauth-harness.js';
import { form, origin } from './token-management.js';

export const ISSUER = 'http://localhost:3000';

/** An RFC 7636 S256 verifier and its challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A valid authorization request for `client`; `undefined` in `overrides` drops a parameter. */
export function authorizeFields(
  client: FakeClient,
  challenge: string,
  overrides: Record<string, string | undefined> = {},
): [string, string][] {
  const fields: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUris[0],
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'openid email',
    state: 'st-123',
    nonce: 'n-456',
    ...overrides,
  };
  return Object.entries(fields).flatMap(([name, value]) =>
    value === undefined ? [] : [[name, value] as [string, string]],
  );
}

/** Where an outcome sends the browser, as a URL; fails on an error page. */
export function redirectOf(response: Pick<AuthorizeResponse, 'outcome'>): URL {
  const next = response.outcome?.next;
  if (next?.case !== 'redirectTo') throw new Error(`expected a redirect, got ${JSON.stringify(next)}`);
  return new URL(next.value);
}

/** The handle of a hosted-page redirect (/ui/login or /ui/consent). */
export function handleOf(response: Pick<AuthorizeResponse, 'outcome'>, page: 'login' | 'consent'): string {
  const url = redirectOf(response);
  expect(`${url.origin}${url.pathname}`).toBe(`${ISSUER}/ui/${page}`);
  return url.searchParams.get('handle')!;
}

export interface ObtainedCode {
  code: string;
  verifier: string;
  session: FakeBrowserSession;
  redirect: URL;
}

/** Drives the flow as consent-ui would: a signed-in browser authorizes and, if asked, allows. */
export class CodeFlow {
  constructor(
    private readonly oauth: RunningOAuth,
    private readonly identity: FakeIdentity,
  ) {}

  authorize(fields: [string, string][], session?: FakeBrowserSession) {
    return this.oauth.authorization.authorize({
      parameters: form(fields),
      ...(session ? { sessionToken: session.token } : {}),
      origin,
    });
  }

  async obtainCode(
    client: FakeClient,
    user: FakeUser,
    overrides: Record<string, string | undefined> = {},
    session = this.identity.openBrowserSession(user),
  ): Promise<ObtainedCode> {
    const { verifier, challenge } = pkcePair();
    let response: Pick<AuthorizeResponse, 'outcome'> = await this.authorize(
      authorizeFields(client, challenge, overrides),
      session,
    );
    const url = redirectOf(response);
    if (url.pathname === '/ui/consent') {
      response = await this.oauth.authorization.decideConsent({
        handle: url.searchParams.get('handle')!,
        sessionToken: session.token,
        allow: true,
        origin,
      });
    }
    const redirect = redirectOf(response);
    const code = redirect.searchParams.get('code');
    if (!code) throw new Error(`no code in ${redirect.href}`);
    return { code, verifier, session, redirect };
  }

  /** The token request of the code; `undefined` in `overrides` drops a field, `extra` adds more. */
  redeem(
    client: FakeClient,
    code: string,
    verifier: string,
    overrides: Record<string, string | undefined> = {},
    extra: [string, string][] = [],
  ) {
    const fields: Record<string, string | undefined> = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUris[0],
      code_verifier: verifier,
      ...overrides,
    };
    const parameters = Object.entries(fields).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, value] as [string, string]],
    );
    return this.oauth.tokens
      .token({
        parameters: form([...parameters, ...extra]),
        basic: { clientId: client.clientId, clientSecret: client.secret! },
        origin,
      })
      .then((response) => response.tokens!);
  }
}
