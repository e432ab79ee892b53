import { createRemoteJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
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
  TOKEN_EXCHANGE,
} from '../support/exchange-helpers.js';
import { API, PARTNER, useIdJagScene } from './id-jag-scene.js';

// ID-JAG between two instances of the suite on loopback (docs/decisions.md #13, interface.md 4.3,
// 4.4, docs/enterprise-assertions.md), the scene of id-jag-scene.ts: the round trip from idp to
// rs and discovery. The refusals are in id-jag-receiver-refusals.test.ts and
// id-jag-issuer-refusals.test.ts.
const scene = await useIdJagScene();
const { idp, rs, requestIdJag, redeem, partnerAssertion } = scene;

describe('ID-JAG round trip between two authorization servers', () => {
  it('idp issues a signed ID-JAG; rs verifies it and issues an access token for its own account', async () => {
    const issued = await requestIdJag(scene.app, scene.aliceToken, [
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
      sub: scene.alice.id,
      aud: rs.suite.baseUrl,
      client_id: scene.app.clientId,
      jti: expect.any(String),
      iat: expect.any(Number),
      exp: expect.any(Number),
      scope: 'calendar:read',
      resource: API,
      email: scene.alice.email,
      email_verified: true,
    });

    const redeemed = await redeem(scene.appAtRs, assertion);
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
      sub: scene.aliceAtRs.id,
      aud: API,
      client_id: scene.appAtRs.clientId,
      scope: 'calendar:read',
      email: scene.alice.email,
      email_verified: true,
      iat: expect.any(Number),
      exp: expect.any(Number),
      jti: expect.any(String),
    });

    expect(await auditEvents(idp.suite.oauthEnv.DATABASE_URL!, 'id_jag_issued')).toContainEqual({
      user_id: scene.alice.id,
      details: {
        clientId: scene.app.clientId,
        actorChain: [],
        audience: rs.suite.baseUrl,
        jti: payload.jti,
        subjectJti: claimsOf(scene.aliceToken).jti,
      },
    });
    expect(await auditEvents(rs.suite.oauthEnv.DATABASE_URL!, 'id_jag_accepted')).toContainEqual({
      user_id: scene.aliceAtRs.id,
      details: {
        clientId: scene.appAtRs.clientId,
        actorChain: [],
        issuer: idp.suite.baseUrl,
        assertionJti: payload.jti,
        assertionSub: scene.alice.id,
        jti: accessToken.payload.jti,
      },
    });
    const metrics = await (await fetch(`${idp.suite.baseUrl}/metrics`)).text();
    expect(metricValue(metrics, 'tokens_issued_total', { type: 'id-jag', grant: TOKEN_EXCHANGE })).toBe(1);
  });

  it("keeps an assertion's act, with its issuer, in the other server's token", async () => {
    const redeemed = await redeem(scene.appAtRs, await partnerAssertion({ act: { sub: 'partner-agent' } }));
    expect(redeemed.status).toBe(200);
    const act = { sub: 'partner-agent', iss: PARTNER };
    expect(claimsOf(redeemed.body.access_token).act).toEqual(act);
    expect((await introspectAs(rs.suite, scene.appAtRs, redeemed.body.access_token as string)).act).toEqual(
      act,
    );
    const events = await auditEvents(rs.suite.oauthEnv.DATABASE_URL!, 'id_jag_accepted');
    expect(events.at(-1)).toMatchObject({ details: { actorChain: ['partner-agent'] } });
  });

  it('redeems an assertion of an issuer trusted by inline keys', async () => {
    const redeemed = await redeem(scene.appAtRs, await partnerAssertion());
    expect(redeemed.status).toBe(200);
    expect(claimsOf(redeemed.body.access_token)).toMatchObject({
      sub: scene.aliceAtRs.id,
      scope: 'calendar:read',
    });
  });

  it('an ID-JAG is no access token at either server', async () => {
    const issued = await requestIdJag(scene.app, scene.aliceToken);
    expect(headerOf(issued.body.access_token).typ).toBe('oauth-id-jag+jwt');
    // Signed by idp's own key, but typ oauth-id-jag+jwt is never taken for at+jwt.
    const agent = await registerAgent(idp.suite, { scope: 'calendar:read' });
    const misuse = await exchange(idp.suite, agent, issued.body.access_token as string);
    expect(misuse.body).toEqual(describedError('invalid_request', 'The subject token is not active'));
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
