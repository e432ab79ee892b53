import { describe, expect, it } from 'vitest';
import { INVALID_GRANT } from '../support/code-flow.js';
import { withAlteredSignature } from '../support/tokens.js';
import {
  describedError,
  exchange,
  ID_JAG_TYPE,
  JWT_BEARER,
  registerClient,
} from '../support/exchange-helpers.js';
import { OTHER_AS, useIdJagScene } from './id-jag-scene.js';

// ID-JAG between two servers (docs/enterprise-assertions.md; the scene of id-jag-scene.ts): the
// assertions rs, the receiver, refuses.
const scene = await useIdJagScene();
const { idp, rs, requestIdJag, redeem, partnerAssertion, registerVerified } = scene;

describe('the receiver refuses (invalid_grant, nothing said)', () => {
  const refused = async (assertion: string | Promise<string>, client = scene.appAtRs) => {
    const response = await redeem(client, await assertion);
    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: INVALID_GRANT });
  };

  it('an untrusted issuer', () => refused(partnerAssertion({ iss: 'https://unknown-idp.example' })));

  it('a bad signature', async () => {
    const genuine = (await requestIdJag(scene.app, scene.aliceToken)).body.access_token as string;
    await refused(withAlteredSignature(genuine));
    // Signed by a trusted key, but not the one of the issuer it names.
    await refused(partnerAssertion({ iss: idp.suite.baseUrl }));
  });

  it('a wrong aud', async () => {
    const elsewhere = await exchange(idp.suite, scene.app, scene.aliceToken, [
      ['requested_token_type', ID_JAG_TYPE],
      ['audience', OTHER_AS],
    ]);
    expect(elsewhere.status).toBe(200);
    await refused(elsewhere.body.access_token as string);
    await refused(partnerAssertion({ aud: [rs.suite.baseUrl, 'https://other-as.example'] }));
  });

  it('a replayed jti', async () => {
    const assertion = (await requestIdJag(scene.app, scene.aliceToken)).body.access_token as string;
    expect((await redeem(scene.appAtRs, assertion)).status).toBe(200);
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
    await refused(scene.aliceToken);
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
    const capitals = await redeem(
      scene.appAtRs,
      await partnerAssertion({ email: scene.alice.email.toUpperCase() }),
    );
    expect(capitals.status).toBe(200);
  });

  it('refuses a scope wider than the assertion, and a public client', async () => {
    const wider = await redeem(scene.appAtRs, await partnerAssertion(), [['scope', 'calendar:read openid']]);
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
