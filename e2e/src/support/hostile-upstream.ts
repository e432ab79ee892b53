import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

/**
 * What the hostile upstream does wrong on its next sign-in. `honest` does nothing wrong: the
 * control showing that each refusal comes from the one fault and not from the harness.
 */
export type UpstreamFault = 'honest' | 'forged-state' | 'wrong-iss' | 'wrong-nonce' | 'foreign-key';

interface Grant {
  redirectUri: string;
  nonce: string;
  codeChallenge: string;
}

/**
 * A minimal OpenID Provider built with jose, for the faults a well-behaved one never commits:
 * discovery, JWKS, an authorization endpoint that answers at once (no login) and a token
 * endpoint. Its user is `sub` with a verified `email`.
 */
export class HostileUpstream {
  readonly clientId = 'downstream';
  readonly clientSecret = randomBytes(32).toString('base64url');
  fault: UpstreamFault = 'honest';
  /** Show the way back as a link (`#back`) instead of redirecting: a test can take it elsewhere. */
  holdAnswer = false;
  private readonly grants = new Map<string, Grant>();

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly keys: { published: CryptoKey; foreign: CryptoKey; publicJwk: Record<string, unknown> },
    readonly user: { sub: string; email: string },
  ) {}

  static async start(user: { sub: string; email: string }): Promise<HostileUpstream> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const published = await generateKeyPair('RS256');
    const foreign = await generateKeyPair('RS256');
    const publicJwk = { ...(await exportJWK(published.publicKey)), alg: 'RS256', use: 'sig', kid: 'k1' };
    const upstream = new HostileUpstream(
      server,
      `http://127.0.0.1:${port}`,
      { published: published.privateKey, foreign: foreign.privateKey, publicJwk },
      user,
    );
    server.on('request', (request, response) => {
      upstream
        .route(request)
        .then(({ status, headers, body }) => response.writeHead(status, headers).end(body))
        .catch((error: unknown) => response.writeHead(500).end(String(error)));
    });
    return upstream;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async route(request: IncomingMessage) {
    const url = new URL(request.url ?? '/', this.issuer);
    const json = (body: unknown, status = 200) => ({
      status,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (url.pathname === '/.well-known/openid-configuration') {
      return json({
        issuer: this.issuer,
        authorization_endpoint: `${this.issuer}/authorize`,
        token_endpoint: `${this.issuer}/token`,
        jwks_uri: `${this.issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (url.pathname === '/jwks') return json({ keys: [this.keys.publicJwk] });
    if (url.pathname === '/authorize') return this.authorize(url.searchParams);
    if (url.pathname === '/token' && request.method === 'POST') {
      return json(...(await this.token(new URLSearchParams(await bodyOf(request)))));
    }
    return json({ error: 'not_found' }, 404);
  }

  private authorize(query: URLSearchParams) {
    const code = randomBytes(16).toString('hex');
    this.grants.set(code, {
      redirectUri: query.get('redirect_uri') ?? '',
      nonce: query.get('nonce') ?? '',
      codeChallenge: query.get('code_challenge') ?? '',
    });
    const back = new URL(query.get('redirect_uri') ?? '');
    back.searchParams.set('code', code);
    const state = query.get('state') ?? '';
    back.searchParams.set(
      'state',
      this.fault === 'forged-state' ? randomBytes(32).toString('base64url') : state,
    );
    back.searchParams.set('iss', this.fault === 'wrong-iss' ? 'https://attacker.example' : this.issuer);
    if (this.holdAnswer) {
      const body = `<!doctype html><title>Answer</title><a id="back" href="${back.href.replace(/&/g, '&amp;')}">Back</a>`;
      return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body };
    }
    return { status: 302, headers: { location: back.href }, body: '' };
  }

  private async token(form: URLSearchParams): Promise<[unknown, number]> {
    const grant = this.grants.get(form.get('code') ?? '');
    this.grants.delete(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (!grant || grant.redirectUri !== form.get('redirect_uri') || challenge !== grant.codeChallenge) {
      return [{ error: 'invalid_grant' }, 400];
    }
    const signingKey = this.fault === 'foreign-key' ? this.keys.foreign : this.keys.published;
    const idToken = await new SignJWT({
      email: this.user.email,
      email_verified: true,
      nonce: this.fault === 'wrong-nonce' ? randomBytes(16).toString('base64url') : grant.nonce,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(this.issuer)
      .setSubject(this.user.sub)
      .setAudience(this.clientId)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(signingKey);
    return [
      {
        access_token: randomBytes(16).toString('hex'),
        token_type: 'Bearer',
        expires_in: 300,
        id_token: idToken,
      },
      200,
    ];
  }
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
