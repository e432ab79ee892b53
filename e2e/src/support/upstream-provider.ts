import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** The claims the upstream holds for one of its users, who signs in with this login name. */
export interface UpstreamUser {
  email?: string;
  email_verified?: boolean;
}

/**
 * A real OpenID Provider on loopback: node-oidc-provider with its development login and
 * consent screens, one confidential client, PKCE required, `iss` in authorization responses
 * (RFC 9207), ID tokens signed with RS256. A user signs in by typing any login name (the
 * upstream `sub`); `users` says which email claims each name carries. It listens first and
 * learns its client's redirect URI later (acceptRedirectsTo), as the downstream's address is
 * known only once the downstream, configured with this issuer, has started.
 */
export class UpstreamProvider {
  readonly clientId = `downstream-${randomBytes(4).toString('hex')}`;
  readonly clientSecret = randomBytes(32).toString('base64url');
  readonly users = new Map<string, UpstreamUser>();

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {}

  static async start(): Promise<UpstreamProvider> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new UpstreamProvider(server, `http://127.0.0.1:${port}`);
  }

  /** Registers the downstream's callback and starts answering. */
  async acceptRedirectsTo(redirectUri: string): Promise<void> {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: this.clientId,
          client_secret: this.clientSecret,
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'upstream-1' }] },
      pkce: { required: () => true },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      // The email claims in the ID token itself, as most providers put them.
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: true } },
      findAccount: (_context, sub) => ({
        accountId: sub,
        claims: () => ({ sub, ...this.users.get(sub) }),
      }),
    });
    this.server.on('request', provider.callback());
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
