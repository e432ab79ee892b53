import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Configuration } from 'oidc-provider';

export interface ReferenceClient {
  clientId: string;
  clientSecret: string;
}

/** The audience of its tokens; the suite's client_credentials tokens name the client (interface.md 2.5). */
export const REFERENCE_RESOURCE = 'urn:authz:bench:api';

/**
 * node-oidc-provider set up like the suite's token endpoint: client_credentials, one confidential
 * client authenticating with client_secret_basic and allowed `profile`, and RFC 9068 JWT access
 * tokens signed with an Ed25519 key (EdDSA), valid for 900 s. Its tokens go to a resource server
 * (resource indicators) because that is how it issues JWT rather than opaque tokens; neither side
 * stores anything per token.
 */
export function referenceConfiguration({ clientId, clientSecret }: ReferenceClient): Configuration {
  const signingKey = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  return {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
        scope: 'profile',
        // Its only key is Ed25519; the RS256 default would not validate.
        id_token_signed_response_alg: 'EdDSA',
      },
    ],
    jwks: { keys: [{ ...signingKey, alg: 'EdDSA', use: 'sig', kid: 'bench-ed25519' }] },
    scopes: ['profile'],
    ttl: { ClientCredentials: 900 },
    // Unused by this grant; set so it does not warn about tampered cookies.
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => REFERENCE_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'profile',
          audience: REFERENCE_RESOURCE,
          accessTokenTTL: 900,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'EdDSA' } },
        }),
      },
    },
  };
}
