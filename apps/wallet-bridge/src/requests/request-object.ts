import { SignJWT } from 'jose';
import type { WalletConfig } from '../verifier/wallet-config.js';
import { dcqlQuery } from './dcql-query.js';

/** OID4VP 1.0 section 5.8: the audience of a request object under static wallet discovery. */
export const SELF_ISSUED_AUDIENCE = 'https://self-issued.me/v2';

/** JWS algorithms the verifier accepts for SD-JWT VCs and key-binding JWTs (asymmetric only). */
export const ACCEPTED_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'EdDSA', 'PS256', 'PS384', 'PS512', 'RS256'];

export function responseUri(issuer: string): string {
  return `${issuer}/oid4vp/response`;
}

export function requestUri(issuer: string, handle: string): string {
  return `${issuer}/oid4vp/request/${handle}`;
}

/** OID4VP 1.0 section 5.10 (request_uri, RFC 9101): what the QR code or deep link carries. */
export function invocationUri(config: WalletConfig, handle: string): string {
  const query = new URLSearchParams({
    client_id: config.profile.clientId,
    request_uri: requestUri(config.issuer, handle),
  });
  return `openid4vp://?${query.toString()}`;
}

export interface RequestObjectInput {
  state: string;
  nonce: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * OID4VP 1.0 sections 5 and 8.2 (RFC 9101): a compact JWS, typ oauth-authz-req+jwt, signed by
 * the verifier leaf key with x5c = leaf + intermediates; client_id `x509_hash:...` (section
 * 5.9.3), response_mode direct_post to our response URI, the request's nonce and state, and
 * the DCQL query. `iss` is the client_id, as RFC 9101 section 4 recommends for signed requests.
 */
export async function signRequestObject(config: WalletConfig, request: RequestObjectInput): Promise<string> {
  const { profile } = config;
  return new SignJWT({
    client_id: profile.clientId,
    response_type: 'vp_token',
    response_mode: 'direct_post',
    response_uri: responseUri(config.issuer),
    nonce: request.nonce,
    state: request.state,
    dcql_query: dcqlQuery(config.trustedIssuers),
    client_metadata: {
      vp_formats_supported: {
        'dc+sd-jwt': { 'sd-jwt_alg_values': ACCEPTED_ALGORITHMS, 'kb-jwt_alg_values': ACCEPTED_ALGORITHMS },
      },
    },
  })
    .setProtectedHeader({ alg: profile.alg, typ: 'oauth-authz-req+jwt', x5c: profile.x5c })
    .setIssuer(profile.clientId)
    .setAudience(SELF_ISSUED_AUDIENCE)
    .setIssuedAt(Math.floor(request.createdAt.getTime() / 1000))
    .setExpirationTime(Math.floor(request.expiresAt.getTime() / 1000))
    .sign(profile.privateKey);
}
