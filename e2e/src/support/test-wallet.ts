import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  compactVerify,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type JWK,
  type CryptoKey,
} from 'jose';

export const TEST_VCT = 'https://credentials.example/identity_credential';

/**
 * A credential issuer for the tests: an ES256 key and SD-JWT VC issuance (SD-JWT VC draft,
 * RFC 9901 SD-JWT) with every claim but iss/vct/iat/exp/cnf selectively disclosable, built by
 * hand so the verifier under test is checked against an independent implementation.
 */
export class TestIssuer {
  private constructor(
    readonly issuer: string,
    private readonly privateKey: CryptoKey,
    readonly publicJwk: JWK,
  ) {}

  static async create(issuer = 'https://issuer.example'): Promise<TestIssuer> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    return new TestIssuer(issuer, privateKey, {
      ...(await exportJWK(publicKey)),
      kid: 'issuer-key-1',
      alg: 'ES256',
    });
  }

  /** An entry of WALLET_TRUSTED_ISSUERS_FILE (docs/wallet.md). */
  trustEntry() {
    return { issuer: this.issuer, jwks: { keys: [this.publicJwk] }, vct: [TEST_VCT] };
  }

  /** An SD-JWT (issuer JWT + disclosures, ending in `~`) bound to `holder`. */
  async issue(holder: JWK, claims: Record<string, unknown>, options: IssueOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const disclosures = Object.entries(claims).map(([name, value]) =>
      base64url(JSON.stringify([randomBytes(16).toString('base64url'), name, value])),
    );
    const payload = {
      iss: this.issuer,
      vct: TEST_VCT,
      iat: now,
      exp: now + 3600,
      cnf: { jwk: holder },
      _sd_alg: 'sha-256',
      _sd: disclosures.map(sha256),
      ...options.payload,
    };
    const jwt = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'ES256', typ: 'dc+sd-jwt', kid: this.publicJwk.kid! })
      .sign(this.privateKey);
    return `${jwt}~${disclosures.join('~')}~`;
  }
}

export interface IssueOptions {
  /** Claims that replace the defaults, e.g. an `exp` in the past or a `status`. */
  payload?: Record<string, unknown>;
}

/** What the wallet read from a request object. */
export interface ReceivedRequest {
  clientId: string;
  responseUri: string;
  nonce: string;
  state: string;
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

export interface PresentOptions {
  nonce?: string;
  audience?: string;
  /** Present this SD-JWT instead of the wallet's own credential. */
  credential?: string;
}

/**
 * A holder wallet: an ES256 holder key and one credential bound to it. It follows an
 * invocation URI like a real wallet (OID4VP 1.0): fetch the request object by request_uri,
 * check its signature with the x5c leaf and that the leaf hashes to the `x509_hash` client_id,
 * then answer with direct_post.
 */
export class TestWallet {
  private constructor(
    private readonly holderKey: CryptoKey,
    readonly holderJwk: JWK,
    public credential: string,
  ) {}

  static async create(
    issuer: TestIssuer,
    claims: Record<string, unknown>,
    options?: IssueOptions,
  ): Promise<TestWallet> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const holderJwk = await exportJWK(publicKey);
    return new TestWallet(privateKey, holderJwk, await issuer.issue(holderJwk, claims, options));
  }

  /** Fetches and checks the request object an invocation URI points to. */
  async receive(invocationUri: string): Promise<ReceivedRequest> {
    const invocation = new URL(invocationUri);
    const response = await fetch(invocation.searchParams.get('request_uri')!);
    if (response.status !== 200) throw new Error(`request_uri answered ${response.status}`);
    const jws = await response.text();
    const header = decodeProtectedHeader(jws) as Record<string, unknown>;
    const leaf = new X509Certificate(Buffer.from((header.x5c as string[])[0]!, 'base64'));
    const { payload } = await compactVerify(jws, leaf.publicKey);
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    const expectedClientId = `x509_hash:${createHash('sha256').update(leaf.raw).digest('base64url')}`;
    if (
      claims.client_id !== expectedClientId ||
      invocation.searchParams.get('client_id') !== expectedClientId
    ) {
      throw new Error('client_id is not the hash of the x5c leaf');
    }
    return {
      clientId: claims.client_id as string,
      responseUri: claims.response_uri as string,
      nonce: claims.nonce as string,
      state: claims.state as string,
      header,
      claims,
    };
  }

  /** The vp_token of OID4VP 1.0 section 8.1 for the DCQL query id `wallet_credential`. */
  async presentation(
    request: Pick<ReceivedRequest, 'clientId' | 'nonce'>,
    options: PresentOptions = {},
  ): Promise<string> {
    const sdJwt = options.credential ?? this.credential;
    const kb = await new SignJWT({
      nonce: options.nonce ?? request.nonce,
      aud: options.audience ?? request.clientId,
      iat: Math.floor(Date.now() / 1000),
      sd_hash: sha256(sdJwt),
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'kb+jwt' })
      .sign(this.holderKey);
    return JSON.stringify({ wallet_credential: [`${sdJwt}${kb}`] });
  }

  /** Receives, presents and posts (direct_post); answers the HTTP status of the response endpoint. */
  async respond(invocationUri: string, options: PresentOptions = {}): Promise<PostedResponse> {
    const request = await this.receive(invocationUri);
    const form = new URLSearchParams({
      state: request.state,
      vp_token: await this.presentation(request, options),
    });
    return { request, form, ...(await postForm(request.responseUri, form)) };
  }
}

export interface PostedResponse {
  request: ReceivedRequest;
  form: URLSearchParams;
  status: number;
  body: string;
}

export async function postForm(
  url: string,
  form: URLSearchParams,
): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  return { status: response.status, body: await response.text() };
}

/** Writes WALLET_TRUSTED_ISSUERS_FILE into `dir`. */
export function writeTrustedIssuers(dir: string, issuers: TestIssuer[]): string {
  const file = join(dir, 'trusted-issuers.json');
  writeFileSync(file, JSON.stringify(issuers.map((issuer) => issuer.trustEntry())));
  return file;
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'ascii').digest('base64url');
}
