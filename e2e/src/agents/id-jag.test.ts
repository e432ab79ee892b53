import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createRemoteJWKSet,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWTPayload,
} from 'jose';
import pg from 'pg';
import { spareTestPort } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizedTokens,
  INVALID_GRANT,
  newUser,
  PASSWORD,
  useCodeFlow,
  verifyEmail,
  type AppClient,
  type CodeFlowContext,
  type TestUser,
} from '../support/code-flow.js';
import { call } from '../support/clients.js';
import { verifyAtJwks } from '../support/tokens.js';
import { metricValue } from '../support/metrics.js';
import {
  auditEvents,
  claimsOf,
  describedError,
  exchange,
  headerOf,
  ID_JAG_PROFILE,
  ID_JAG_TYPE,
  introspectAs,
  JWT_BEARER,
  registerAgent,
  registerClient,
  registerWebApp,
  TOKEN_EXCHANGE,
  tokenRequest,
} from '../support/exchange-helpers.js';

// ID-JAG between two instances of the suite on loopback (docs/decisions.md #13, interface.md 4.3, 4.4,
// docs/enterprise-assertions.md): `idp` issues by token exchange, `rs` trusts idp through
// ENTERPRISE_TRUSTED_ISSUERS_FILE (its jwks_uri on loopback http, CIMD_ALLOW_INSECURE_LOOPBACK)
// and redeems with the jwt-bearer grant. A third issuer, `partner`, is trusted by inline keys
// the test holds, so it can sign the assertions no honest issuer would. idp issues only for the
// targets of its ENTERPRISE_ID_JAG_AUDIENCES, which names rs before rs starts: rs's port is
// chosen first.
const SCOPES = 'openid profile email offline_access calendar:read calendar:write';
const scopes = { DEFAULT_REALM_ALLOWED_SCOPES: SCOPES, DEFAULT_DYNAMIC_REGISTRATION_SCOPES: SCOPES };
const PARTNER = 'https://partner-idp.example';
const API = 'https://api.example/calendar';
const OTHER_AS = 'https://other-as.example';
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

/** One person with a verified address at both servers. */
let alice: TestUser;
let aliceAtRs: { id: string };
/** The client at idp and the same client (same client_id) at rs. */
let app: AppClient;
let appAtRs: AppClient;
/** Alice's access token from app's code flow at idp. */
let aliceToken: string;

beforeAll(async () => {
  alice = await newUser(idp, { verified: true });
  aliceAtRs = await registerVerified(rs, alice.email);
  app = await registerWebApp(idp.suite, { scope: 'openid email calendar:read calendar:write' });
  appAtRs = await registerAtRs(app.clientId, { scope: 'openid email calendar:read' });
  aliceToken = (
    await authorizedTokens(idp, app, alice, { scope: 'openid email calendar:read calendar:write' })
  ).access_token as string;
});

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

function requestIdJag(client: AppClient, subjectToken: string, extra: [string, string][] = []) {
  return exchange(idp.suite, client, subjectToken, [
    ['requested_token_type', ID_JAG_TYPE],
    ['audience', rs.suite.baseUrl],
    ...extra,
  ]);
}

function redeem(client: AppClient, assertion: string, extra: [string, string][] = []) {
  return tokenRequest(rs.suite, client, [['grant_type', JWT_BEARER], ['assertion', assertion], ...extra]);
}

/** An ID-JAG signed by the partner issuer: valid for rs unless `claims` or `header` break it. */
function partnerAssertion(claims: JWTPayload = {}, header: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: PARTNER,
    sub: 'partner-user-7',
    aud: rs.suite.baseUrl,
    client_id: appAtRs.clientId,
    jti: crypto.randomUUID(),
    iat: now,
    exp: now + 120,
    scope: 'calendar:read',
    email: alice.email,
    email_verified: true,
    ...claims,
  })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'oauth-id-jag+jwt', kid: 'partner-1', ...header })
    .sign(partnerKey);
}

describe('ID-JAG round trip between two authorization servers', () => {
  it('idp issues a signed ID-JAG; rs verifies it and issues an access token for its own account', async () => {
    const issued = await requestIdJag(app, aliceToken, [
      ['scope', 'calendar:read'],
      ['resource', API],
    ]);
    expect(issued.status).toBe(200);
    expect(issued.headers.get('cache-control')).toBe('no-store');
    expect(issued.body).toEqual({
      access_token: expect.any(String),
      issued_token_type: ID_JAG_TYPE,
      token_type: 'N_A',
      expires_in: expect.any(Number),
      scope: 'calendar:read',
    });
    expect(issued.body.expires_in).toBeLessThanOrEqual(300);
    const assertion = issued.body.access_token as string;
    const jwks = createRemoteJWKSet(new URL(`${idp.suite.baseUrl}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(assertion, jwks, { typ: 'oauth-id-jag+jwt' });
    expect(protectedHeader).toEqual({ alg: 'EdDSA', typ: 'oauth-id-jag+jwt', kid: expect.any(String) });
    expect(payload).toEqual({
      iss: idp.suite.baseUrl,
      sub: alice.id,
      aud: rs.suite.baseUrl,
      client_id: app.clientId,
      jti: expect.any(String),
      iat: expect.any(Number),
      exp: expect.any(Number),
      scope: 'calendar:read',
      resource: API,
      email: alice.email,
      email_verified: true,
    });

    const redeemed = await redeem(appAtRs, assertion);
    expect(redeemed.status).toBe(200);
    expect(redeemed.body).toEqual({
      access_token: expect.any(String),
      expires_in: 900,
      token_type: 'Bearer',
      scope: 'calendar:read',
    });
    const accessToken = await verifyAtJwks(rs.suite, redeemed.body.access_token as string);
    expect(accessToken.payload).toEqual({
      iss: rs.suite.baseUrl,
      sub: aliceAtRs.id,
      aud: API,
      client_id: appAtRs.clientId,
      scope: 'calendar:read',
      email: alice.email,
      email_verified: true,
      iat: expect.any(Number),
      exp: expect.any(Number),
      jti: expect.any(String),
    });

    expect(await auditEvents(idp.suite.oauthEnv.DATABASE_URL!, 'id_jag_issued')).toContainEqual({
      user_id: alice.id,
      details: {
        clientId: app.clientId,
        actorChain: [],
        audience: rs.suite.baseUrl,
        jti: payload.jti,
        subjectJti: claimsOf(aliceToken).jti,
      },
    });
    expect(await auditEvents(rs.suite.oauthEnv.DATABASE_URL!, 'id_jag_accepted')).toContainEqual({
      user_id: aliceAtRs.id,
      details: {
        clientId: appAtRs.clientId,
        actorChain: [],
        issuer: idp.suite.baseUrl,
        assertionJti: payload.jti,
        assertionSub: alice.id,
        jti: accessToken.payload.jti,
      },
    });
    const metrics = await (await fetch(`${idp.suite.baseUrl}/metrics`)).text();
    expect(metricValue(metrics, 'tokens_issued_total', { type: 'id-jag', grant: TOKEN_EXCHANGE })).toBe(1);
  });

  it("keeps an assertion's act, with its issuer, in the other server's token", async () => {
    const redeemed = await redeem(appAtRs, await partnerAssertion({ act: { sub: 'partner-agent' } }));
    expect(redeemed.status).toBe(200);
    const act = { sub: 'partner-agent', iss: PARTNER };
    expect(claimsOf(redeemed.body.access_token).act).toEqual(act);
    expect((await introspectAs(rs.suite, appAtRs, redeemed.body.access_token as string)).act).toEqual(act);
    const events = await auditEvents(rs.suite.oauthEnv.DATABASE_URL!, 'id_jag_accepted');
    expect(events.at(-1)).toMatchObject({ details: { actorChain: ['partner-agent'] } });
  });

  it('redeems an assertion of an issuer trusted by inline keys', async () => {
    const redeemed = await redeem(appAtRs, await partnerAssertion());
    expect(redeemed.status).toBe(200);
    expect(claimsOf(redeemed.body.access_token)).toMatchObject({ sub: aliceAtRs.id, scope: 'calendar:read' });
  });

  it('an ID-JAG is no access token at either server', async () => {
    const issued = await requestIdJag(app, aliceToken);
    expect(headerOf(issued.body.access_token).typ).toBe('oauth-id-jag+jwt');
    // Signed by idp's own key, but typ oauth-id-jag+jwt is never taken for at+jwt.
    const agent = await registerAgent(idp.suite, { scope: 'calendar:read' });
    const misuse = await exchange(idp.suite, agent, issued.body.access_token as string);
    expect(misuse.body).toEqual(describedError('invalid_request', 'The subject token is not active'));
  });
});

describe('the receiver refuses (invalid_grant, nothing said)', () => {
  const refused = async (assertion: string | Promise<string>, client = appAtRs) => {
    const response = await redeem(client, await assertion);
    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: INVALID_GRANT });
  };

  it('an untrusted issuer', () => refused(partnerAssertion({ iss: 'https://unknown-idp.example' })));

  it('a bad signature', async () => {
    const genuine = (await requestIdJag(app, aliceToken)).body.access_token as string;
    const [header, payload, signature] = genuine.split('.');
    const flipped = `${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    await refused(`${header}.${payload}.${flipped}`);
    // Signed by a trusted key, but not the one of the issuer it names.
    await refused(partnerAssertion({ iss: idp.suite.baseUrl }));
  });

  it('a wrong aud', async () => {
    const elsewhere = await exchange(idp.suite, app, aliceToken, [
      ['requested_token_type', ID_JAG_TYPE],
      ['audience', OTHER_AS],
    ]);
    expect(elsewhere.status).toBe(200);
    await refused(elsewhere.body.access_token as string);
    await refused(partnerAssertion({ aud: [rs.suite.baseUrl, 'https://other-as.example'] }));
  });

  it('a replayed jti', async () => {
    const assertion = (await requestIdJag(app, aliceToken)).body.access_token as string;
    expect((await redeem(appAtRs, assertion)).status).toBe(200);
    await refused(assertion);
  });

  it('an expired assertion', async () => {
    const now = Math.floor(Date.now() / 1000);
    await refused(partnerAssertion({ iat: now - 600, exp: now - 120 }));
  });

  it('an assertion for another client, of another type, or without a verified local account', async () => {
    await refused(partnerAssertion({ client_id: 'someone-else' }));
    await refused(partnerAssertion({}, { typ: 'JWT' }));
    // The issuer's own access token (typ at+jwt) is no assertion, though its signature verifies.
    await refused(aliceToken);
    await refused(partnerAssertion({ email_verified: false }));
    await refused(partnerAssertion({ email: 'nobody@example.com' }));
    await refused(partnerAssertion({ exp: Math.floor(Date.now() / 1000) + 7200 }));
  });

  it("an address outside the issuer's email domains, though verified here (docs/enterprise-assertions.md #20)", async () => {
    // The partner may assert example.com only; bob's verified account at rs is elsewhere.
    const bobEmail = `bob-${crypto.randomUUID()}@elsewhere.example`;
    await registerVerified(rs, bobEmail);
    await refused(partnerAssertion({ email: bobEmail }));
    await refused(partnerAssertion({ email: bobEmail.toUpperCase() }));
    await refused(partnerAssertion({ email: `alice@sub.example.com` }));
    // The domain is compared case-insensitively: alice's own address in capitals still maps.
    const capitals = await redeem(appAtRs, await partnerAssertion({ email: alice.email.toUpperCase() }));
    expect(capitals.status).toBe(200);
  });

  it('refuses a scope wider than the assertion, and a public client', async () => {
    const wider = await redeem(appAtRs, await partnerAssertion(), [['scope', 'calendar:read openid']]);
    expect(wider.body.error).toBe('invalid_scope');
    const publicClient = await registerClient(rs.suite, {
      grant_types: [JWT_BEARER],
      response_types: [],
      token_endpoint_auth_method: 'none',
    });
    const response = await redeem(publicClient, await partnerAssertion({ client_id: publicClient.clientId }));
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: describedError('unauthorized_client', 'A public client may not redeem an ID-JAG'),
    });
  });
});

describe('the issuer refuses', () => {
  it('a request without exactly one audience', async () => {
    for (const audiences of [[], [rs.suite.baseUrl, OTHER_AS]]) {
      const response = await exchange(idp.suite, app, aliceToken, [
        ['requested_token_type', ID_JAG_TYPE],
        ...audiences.map((audience): [string, string] => ['audience', audience]),
      ]);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 400,
        body: describedError('invalid_request', 'Exactly one audience (the target issuer) is required'),
      });
    }
  });

  it('an audience the operator does not list in ENTERPRISE_ID_JAG_AUDIENCES', async () => {
    const response = await exchange(idp.suite, app, aliceToken, [
      ['requested_token_type', ID_JAG_TYPE],
      ['audience', 'https://victim-as.example'],
    ]);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: describedError('invalid_target', 'The audience is not an allowed target authorization server'),
    });
    // A listed target still works for the same client and token.
    expect((await requestIdJag(app, aliceToken)).status).toBe(200);
  });

  it("a delegated token: an agent's exchange is not laundered into an ID-JAG", async () => {
    // Anyone holding alice's token registers an agent openly and exchanges the token for one
    // naming the agent as client_id and actor (docs/agents.md).
    const agent = await registerAgent(idp.suite, { scope: 'calendar:read' });
    const delegated = await exchange(idp.suite, agent, aliceToken, [['scope', 'calendar:read']]);
    expect(delegated.status).toBe(200);
    expect(claimsOf(delegated.body.access_token)).toMatchObject({
      client_id: agent.clientId,
      act: { sub: agent.clientId },
    });
    const laundered = await requestIdJag(agent, delegated.body.access_token as string, [
      ['scope', 'calendar:read'],
    ]);
    expect({ status: laundered.status, body: laundered.body }).toEqual({
      status: 400,
      body: describedError('invalid_request', 'A delegated subject token may not be exchanged for an ID-JAG'),
    });
  });

  it('a subject token issued to another client, or a scope it was not granted', async () => {
    const other = await registerWebApp(idp.suite, { scope: 'calendar:read' });
    const foreign = await requestIdJag(other, aliceToken);
    expect({ status: foreign.status, body: foreign.body }).toEqual({
      status: 400,
      body: describedError('invalid_request', 'The subject token was issued to another client'),
    });
    const narrow = (await authorizedTokens(idp, app, alice, { scope: 'calendar:read' }))
      .access_token as string;
    const wider = await requestIdJag(app, narrow, [['scope', 'calendar:write']]);
    expect(wider.body.error).toBe('invalid_scope');
  });

  it('a public client', async () => {
    const publicApp = await registerWebApp(idp.suite, { token_endpoint_auth_method: 'none' });
    const tokens = await authorizedTokens(idp, publicApp, alice, { scope: 'openid' });
    const response = await requestIdJag(publicApp, tokens.access_token as string);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: describedError('unauthorized_client', 'A public client may not obtain an ID-JAG'),
    });
  });
});

describe('discovery while ENTERPRISE_ASSERTION_ENABLED is on (interface.md 4.4)', () => {
  it('lists the jwt-bearer grant and the ID-JAG grant profile', async () => {
    for (const flow of [idp, rs]) {
      for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
        const metadata = (await (await fetch(`${flow.suite.baseUrl}${path}`)).json()) as Record<
          string,
          unknown
        >;
        expect(metadata.grant_types_supported).toEqual(expect.arrayContaining([TOKEN_EXCHANGE, JWT_BEARER]));
        expect(metadata.authorization_grant_profiles_supported).toEqual([ID_JAG_PROFILE]);
      }
    }
  });
});
