import { afterAll, beforeAll, expect, it } from 'vitest';
import { useDevelopers } from '../support/use-developers.js';
import { introspect, revoke, startOAuthReplica, type OAuthReplica } from '../support/token-management.js';
import { basicAuth, newClient, requestToken } from '../support/tokens.js';

// interface.md 2.5 with docs/decisions.md #26: the deny-list lives in Redis, shared by every oauth replica,
// so a token revoked through one is inactive at once on the others (docs/tokens.md #14, #24).
const developers = useDevelopers();

// Replica A is the suite's own oauth, behind the gateway; B runs beside it.
let replicaB: OAuthReplica;
beforeAll(async () => {
  replicaB = await startOAuthReplica(developers.suite);
});
afterAll(() => replicaB?.close());

it('a revoked access token is inactive at once on every replica', async () => {
  const client = await newClient(developers.suite, developers.alice.token);
  const basic = { clientId: client.clientId, clientSecret: client.clientSecret! };
  const headers = basicAuth(basic.clientId, basic.clientSecret);
  const issued = await requestToken(developers.suite, [['grant_type', 'client_credentials']], headers);
  const token = issued.body.access_token as string;
  const introspectAtB = async () =>
    (await replicaB.tokens.introspect({ parameters: [{ name: 'token', value: token }], basic })).active;

  expect(await introspectAtB()).toBe(true);
  expect((await revoke(developers.suite, [['token', token]], headers)).status).toBe(200);
  // No waiting, no retry: the very next question to B already sees the revocation.
  expect(await introspectAtB()).toBe(false);
  expect((await introspect(developers.suite, [['token', token]], headers)).body).toEqual({ active: false });
});

it('and the other way round: revoked at B, inactive through the gateway', async () => {
  const client = await newClient(developers.suite, developers.alice.token);
  const basic = { clientId: client.clientId, clientSecret: client.clientSecret! };
  const headers = basicAuth(basic.clientId, basic.clientSecret);
  const issued = await requestToken(developers.suite, [['grant_type', 'client_credentials']], headers);
  const token = issued.body.access_token as string;
  expect((await introspect(developers.suite, [['token', token]], headers)).body).toMatchObject({
    active: true,
  });
  await replicaB.tokens.revoke({ parameters: [{ name: 'token', value: token }], basic });
  expect((await introspect(developers.suite, [['token', token]], headers)).body).toEqual({ active: false });
});
