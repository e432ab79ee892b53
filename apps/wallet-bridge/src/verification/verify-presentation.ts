import { digest } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import type { JWK } from 'jose';
import { SUBJECT_CLAIM } from '../requests/dcql-query.js';
import type { TrustedCredentialIssuer } from '../verifier/trusted-issuers.js';
import type { WalletConfig } from '../verifier/wallet-config.js';
import { verifyJwsSignature } from './jws-signature.js';
import { PresentationRejected, type VerifiedCredential } from './verified-credential.js';

/** SD-JWT VC draft: the issuer JWT's typ (`vc+sd-jwt` is the name before draft 06). */
const SD_JWT_VC_TYPES = ['dc+sd-jwt', 'vc+sd-jwt'];

/** Clock skew tolerated on iat/nbf/exp and on the key-binding JWT's iat, in seconds. */
const SKEW_SECONDS = 30;

export interface PresentationContext {
  nonce: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * docs/wallet.md #8, SD-JWT VC + OID4VP 1.0 section 8.6 / B.3.6: the presentation is trusted only
 * when all hold, else PresentationRejected:
 * - the issuer JWT is an SD-JWT VC (typ) from a trusted issuer (`iss`), of a type (`vct`) that
 *   issuer is trusted for, signed by one of that issuer's keys;
 * - iat / nbf / exp hold (@sd-jwt checks them when present) and every disclosure digest matches;
 * - it carries no `status` claim: status lists are not fetched (no outbound calls from here),
 *   so a credential whose revocation cannot be checked is refused (docs/wallet.md);
 * - a key-binding JWT signed by the `cnf.jwk` holder key, with the request's nonce, aud = our
 *   client_id, an iat within the request's lifetime and the sd_hash of what was presented;
 * - the issuer-scoped subject claim is a non-empty string.
 */
export async function verifyPresentation(
  config: WalletConfig,
  presentation: string,
  context: PresentationContext,
): Promise<VerifiedCredential> {
  const { header, payload } = decodeIssuerJwt(presentation);
  if (typeof header.typ !== 'string' || !SD_JWT_VC_TYPES.includes(header.typ)) reject('not an SD-JWT VC');
  const issuer = config.trustedIssuers.find((entry) => entry.issuer === payload.iss);
  if (!issuer) reject('untrusted issuer');
  if (typeof payload.vct !== 'string' || !issuer.vct.includes(payload.vct))
    reject('credential type not trusted');
  if (payload.status !== undefined) reject('credential status cannot be checked');
  const holderKey = (payload.cnf as { jwk?: JWK } | undefined)?.jwk;
  if (typeof holderKey !== 'object' || holderKey === null) reject('no holder key');

  const verified = await verifyWithLibrary(issuer, holderKey, presentation, context.nonce);
  checkKeyBinding(config, verified.kb?.payload, context);
  const subject = verified.payload[SUBJECT_CLAIM];
  if (typeof subject !== 'string' || subject === '') reject('no subject claim');
  const email = verified.payload.email;
  return { issuer: issuer.issuer, subject, ...(typeof email === 'string' && email !== '' ? { email } : {}) };
}

async function verifyWithLibrary(
  issuer: TrustedCredentialIssuer,
  holderKey: JWK,
  presentation: string,
  nonce: string,
) {
  const instance = new SDJwtVcInstance({
    hasher: digest,
    verifier: (data, signature) => verifiedByAnyKey(issuer, data, signature),
    kbVerifier: (data, signature) => verifyJwsSignature(data, signature, holderKey),
    // Never reached (status claims are refused first); refuse rather than fetch if it were.
    statusListFetcher: () => Promise.reject(new Error('status lists are not fetched')),
  });
  try {
    return await instance.verify(presentation, { keyBindingNonce: nonce, skewSeconds: SKEW_SECONDS });
  } catch (error) {
    return reject(`SD-JWT VC verification failed: ${(error as Error).message}`);
  }
}

async function verifiedByAnyKey(
  issuer: TrustedCredentialIssuer,
  data: string,
  signature: string,
): Promise<boolean> {
  for (const key of issuer.jwks.keys) {
    if (await verifyJwsSignature(data, signature, key as JWK)) return true;
  }
  return false;
}

// OID4VP 1.0 section B.3.6: aud is the client_id the wallet saw; nonce checked by @sd-jwt.
function checkKeyBinding(
  config: WalletConfig,
  kb: Record<string, unknown> | undefined,
  context: PresentationContext,
) {
  if (!kb) reject('no key-binding JWT');
  if (kb.aud !== config.profile.clientId) reject('key-binding JWT audience');
  const iat = kb.iat;
  const earliest = context.createdAt.getTime() / 1000 - SKEW_SECONDS;
  const latest = context.expiresAt.getTime() / 1000 + SKEW_SECONDS;
  if (typeof iat !== 'number' || iat < earliest || iat > latest)
    reject('key-binding JWT not made for this request');
}

function decodeIssuerJwt(presentation: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
} {
  const [jwt = ''] = presentation.split('~');
  const [header, payload] = jwt.split('.');
  try {
    const decode = (part: string | undefined) =>
      JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
    const decoded = { header: decode(header), payload: decode(payload) };
    if (!isObject(decoded.header) || !isObject(decoded.payload)) throw new Error('not objects');
    return decoded;
  } catch {
    return reject('issuer JWT is not decodable');
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function reject(reason: string): never {
  throw new PresentationRejected(reason);
}
