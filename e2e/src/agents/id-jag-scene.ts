import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import pg from 'pg';
import { spareTestPort } from '@authz/shared/testing';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  authorizedTokens,
  newUser,
  PASSWORD,
  useCodeFlow,
  verifyEmail,
  type AppClient,
  type CodeFlowContext,
  type TestUser,
} from '../support/code-flow.js';
import { call } from '../support/clients.js';
import type { TokenResponse } from '../support/tokens.js';
import {
  exchange,
  ID_JAG_TYPE,
  JWT_BEARER,
  registerClient,
  registerWebApp,
  tokenRequest,
} from '../support/exchange-helpers.js';

// What the id-jag*.test.ts files between two servers share: ID-JAG between two instances of the
// suite on loopback (docs/decisions.md #13, interface.md 4.3, 4.4, docs/enterprise-assertions.md):
// `idp` issues by token exchange, `rs` trusts idp through ENTERPRISE_TRUSTED_ISSUERS_FILE (its
// jwks_uri on loopback http, CIMD_ALLOW_INSECURE_LOOPBACK) and redeems with the jwt-bearer grant.
// A third issuer, `partner`, is trusted by inline keys the test holds, so it can sign the
// assertions no honest issuer would. idp issues only for the targets of its
// ENTERPRISE_ID_JAG_AUDIENCES, which names rs before rs starts: rs's port is chosen first.
const SCOPES = 'openid profile email offline_access calendar:read calendar:write';
export const PARTNER = 'https://partner-idp.example';
export const API = 'https://api.example/calendar';
export const OTHER_AS = 'https://other-as.example';

export interface IdJagScene {
  idp: CodeFlowContext;
  rs: CodeFlowContext;
  /** The fields below exist from this file's beforeAll on. One person with a verified address at both servers. */
  alice: TestUser;
  aliceAtRs: { id: string };
  /** The client at idp and the same client (same client_id) at rs. */
  app: AppClient;
  appAtRs: AppClient;
  /** Alice's access token from app's code flow at idp. */
  aliceToken: string;
  /** Registers `email` at `flow` and verifies it. */
  registerVerified(flow: CodeFlowContext, email: string): Promise<{ id: string }>;
  /** Token exchange at idp for an ID-JAG whose audience is rs. */
  requestIdJag(client: AppClient, subjectToken: string, extra?: [string, string][]): Promise<TokenResponse>;
  /** The jwt-bearer grant at rs. */
  redeem(client: AppClient, assertion: string, extra?: [string, string][]): Promise<TokenResponse>;
  /** An ID-JAG signed by the partner issuer: valid for rs unless `claims` or `header` break it. */
  partnerAssertion(claims?: JWTPayload, header?: Record<string, unknown>): Promise<string>;
}

/** One test file's two suites and its scene. */
export async function useIdJagScene(): Promise<IdJagScene> {
  const scopes = { DEFAULT_REALM_ALLOWED_SCOPES: SCOPES, DEFAULT_DYNAMIC_REGISTRATION_SCOPES: SCOPES };
  const trustDirectory = mkdtempSync(join(tmpdir(), 'trusted-issuers-'));
  const trustFile = join(trustDirectory, 'trusted-issuers.json');
  const rsPort = await spareTestPort();

  const idp = useCodeFlow(
    {},
    {
      ...scopes,
      ENTERPRISE_ASSERTION_ENABLED: 'true',
      ENTERPRISE_ID_JAG_AUDIENCES: `http://127.0.0.1:${rsPort} ${OTHER_AS}`,
    },
  );
  let partnerKey: CryptoKey;
  // Between the two suites' start-ups: rs reads the file when it starts.
  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA');
    partnerKey = privateKey;
    const partnerJwk = { ...(await exportJWK(publicKey)), kid: 'partner-1', alg: 'EdDSA', use: 'sig' };
    writeFileSync(
      trustFile,
      JSON.stringify([
        {
          issuer: idp.suite.baseUrl,
          jwks_uri: `${idp.suite.baseUrl}/.well-known/jwks.json`,
          email_domains: ['example.com'],
        },
        { issuer: PARTNER, jwks: { keys: [partnerJwk] }, email_domains: ['example.com'] },
      ]),
    );
  });
  const rs = useCodeFlow(
    {},
    {
      ...scopes,
      ENTERPRISE_ASSERTION_ENABLED: 'true',
      ENTERPRISE_TRUSTED_ISSUERS_FILE: trustFile,
      CIMD_ALLOW_INSECURE_LOOPBACK: 'true',
    },
    { port: rsPort },
  );
  afterAll(() => rmSync(trustDirectory, { recursive: true, force: true }));

  async function registerVerified(flow: CodeFlowContext, email: string): Promise<{ id: string }> {
    const registered = await call<{ id: string }>(flow.suite, 'POST', '/auth/register', {
      body: { email, password: PASSWORD },
    });
    expect(registered.status).toBe(201);
    await verifyEmail(flow, email);
    return registered.body;
  }

  /**
   * The client registered at rs under the client_id it has at idp. The draft leaves out how an
   * issuer learns the client's identifier at the target server (docs/enterprise-assertions.md
   * #2); with one identifier at both ends, the client_id of the assertion is the authenticated
   * client's. Identifiers are server-chosen, so the test sets it in rs's database.
   */
  async function registerAtRs(clientId: string, metadata: Record<string, unknown>): Promise<AppClient> {
    const client = await registerClient(rs.suite, {
      grant_types: [JWT_BEARER],
      response_types: [],
      ...metadata,
    });
    const sql = new pg.Client({ connectionString: rs.suite.oauthEnv.DATABASE_URL });
    await sql.connect();
    try {
      await sql.query('UPDATE clients.clients SET client_id = $1 WHERE client_id = $2', [
        clientId,
        client.clientId,
      ]);
    } finally {
      await sql.end();
    }
    return { ...client, clientId };
  }

  const scene = {
    idp,
    rs,
    registerVerified,
    requestIdJag: (client, subjectToken, extra = []) =>
      exchange(idp.suite, client, subjectToken, [
        ['requested_token_type', ID_JAG_TYPE],
        ['audience', rs.suite.baseUrl],
        ...extra,
      ]),
    redeem: (client, assertion, extra = []) =>
      tokenRequest(rs.suite, client, [['grant_type', JWT_BEARER], ['assertion', assertion], ...extra]),
    partnerAssertion: (claims = {}, header = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        iss: PARTNER,
        sub: 'partner-user-7',
        aud: rs.suite.baseUrl,
        client_id: scene.appAtRs.clientId,
        jti: crypto.randomUUID(),
        iat: now,
        exp: now + 120,
        scope: 'calendar:read',
        email: scene.alice.email,
        email_verified: true,
        ...claims,
      })
        .setProtectedHeader({ alg: 'EdDSA', typ: 'oauth-id-jag+jwt', kid: 'partner-1', ...header })
        .sign(partnerKey);
    },
  } as IdJagScene;

  beforeAll(async () => {
    scene.alice = await newUser(idp, { verified: true });
    scene.aliceAtRs = await registerVerified(rs, scene.alice.email);
    scene.app = await registerWebApp(idp.suite, { scope: 'openid email calendar:read calendar:write' });
    scene.appAtRs = await registerAtRs(scene.app.clientId, { scope: 'openid email calendar:read' });
    scene.aliceToken = (
      await authorizedTokens(idp, scene.app, scene.alice, {
        scope: 'openid email calendar:read calendar:write',
      })
    ).access_token as string;
  });

  return scene;
}
