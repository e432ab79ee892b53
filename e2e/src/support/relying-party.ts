import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';

/** What the relying party learnt from one completed sign-in. */
export interface SignInResult {
  sub: string;
  idTokenClaims: Record<string, unknown>;
  userInfo: Record<string, unknown>;
  scope: string | undefined;
  hasRefreshToken: boolean;
}

/**
 * A confidential web application on loopback that signs its users in with openid-client,
 * as a real relying party would: discovery, PKCE (S256), state, nonce, the RFC 9207 `iss`
 * check, ID token validation and UserInfo. GET /start begins a sign-in, GET /callback finishes
 * it and shows the outcome as JSON in `<pre id="result">`.
 */
export class RelyingParty {
  private config: oidc.Configuration | undefined;
  private readonly pending = new Map<string, { verifier: string; nonce: string }>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<RelyingParty> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const party = new RelyingParty(server, `http://127.0.0.1:${port}`);
    server.on('request', (request, response) => {
      party
        .route(request.url ?? '/')
        .then(({ status, headers, body }) => response.writeHead(status, headers).end(body))
        .catch((error: unknown) => {
          const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
          response.writeHead(500, { 'content-type': 'text/plain' }).end(message);
        });
    });
    return party;
  }

  get redirectUri(): string {
    return `${this.origin}/callback`;
  }

  /** Where RP-initiated logout returns (OIDC RP-Initiated Logout 1.0 section 3). */
  get postLogoutRedirectUri(): string {
    return `${this.origin}/logged-out`;
  }

  /** The end-session URL openid-client builds from discovery's end_session_endpoint. */
  endSessionUrl(parameters: Record<string, string>): string {
    return oidc.buildEndSessionUrl(this.configured(), parameters).href;
  }

  /** Discovers the authorization server; call once the client is registered. */
  async configure(issuer: string, clientId: string, clientSecret: string): Promise<void> {
    this.config = await oidc.discovery(
      new URL(issuer),
      clientId,
      // docs/decisions.md #11: ID tokens are EdDSA unless the client registered RS256.
      { id_token_signed_response_alg: 'EdDSA' },
      oidc.ClientSecretBasic(clientSecret),
      // The test issuer is http on loopback.
      { execute: [oidc.allowInsecureRequests] },
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async route(
    url: string,
  ): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    if (url.startsWith('/start')) {
      // /start?acr_values=...: the authorization request asks for that class (OIDC Core 3.1.2.1).
      const acrValues = new URL(url, this.origin).searchParams.get('acr_values') ?? undefined;
      return { status: 302, headers: { location: await this.start(acrValues) }, body: '' };
    }
    if (url.startsWith('/callback')) {
      const result = await this.finish(new URL(url, this.origin));
      const body = `<!doctype html><title>Signed in</title><pre id="result">${escape(JSON.stringify(result))}</pre>`;
      return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body };
    }
    if (url.startsWith('/logged-out')) {
      const state = new URL(url, this.origin).searchParams.get('state');
      const body = `<!doctype html><title>Signed out</title><pre id="logged-out">${escape(JSON.stringify({ state }))}</pre>`;
      return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body };
    }
    return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
  }

  private async start(acrValues: string | undefined): Promise<string> {
    const config = this.configured();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    this.pending.set(state, { verifier, nonce });
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...(acrValues === undefined ? {} : { acr_values: acrValues }),
    }).href;
  }

  private async finish(callbackUrl: URL): Promise<SignInResult> {
    const config = this.configured();
    const state = callbackUrl.searchParams.get('state') ?? '';
    const pending = this.pending.get(state);
    if (!pending) throw new Error('unknown state');
    this.pending.delete(state);
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.verifier,
      expectedState: state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    const userInfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    return {
      sub: claims.sub,
      idTokenClaims: { ...claims },
      userInfo: { ...userInfo },
      scope: tokens.scope,
      hasRefreshToken: typeof tokens.refresh_token === 'string',
    };
  }

  private configured(): oidc.Configuration {
    if (!this.config) throw new Error('RelyingParty.configure() first');
    return this.config;
  }
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
