import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { decodeProtectedHeader } from 'jose';
import { expect, it, vi } from 'vitest';
import { useDevelopers } from '../support/use-developers.js';
import { basicAuth, newClient, requestToken, verifyAtJwks } from '../support/tokens.js';

// docs/tokens.md #7: the operator command rotates the signing key without a restart; tokens of
// the retired key keep verifying against the published JWKS. Keys reload every second here.
const developers = useDevelopers({}, { SIGNING_KEY_RELOAD_INTERVAL_MS: '1000' });
const rotateCommand = fileURLToPath(
  new URL('../../../apps/oauth/dist/rotate-signing-key.js', import.meta.url),
);

async function accessToken(basic: Record<string, string>): Promise<string> {
  const response = await requestToken(developers.suite, [['grant_type', 'client_credentials']], basic);
  expect(response.status).toBe(200);
  return response.body.access_token as string;
}

async function publishedKids(alg = 'EdDSA'): Promise<string[]> {
  const jwks = (await (await fetch(`${developers.suite.baseUrl}/.well-known/jwks.json`)).json()) as {
    keys: { kid: string; alg: string }[];
  };
  return jwks.keys.filter((key) => key.alg === alg).map((key) => key.kid);
}

it('rotates with the operator command: the new key is published, then signs; old tokens still verify', async () => {
  const client = await newClient(developers.suite, developers.alice.token);
  const basic = basicAuth(client.clientId, client.clientSecret!);
  const before = await accessToken(basic);
  const oldKid = decodeProtectedHeader(before).kid!;
  expect(await publishedKids()).toEqual([oldKid]);
  const [oldRsaKid] = await publishedKids('RS256');
  expect(oldRsaKid).toEqual(expect.any(String));

  await promisify(execFile)(process.execPath, [rotateCommand], {
    env: { ...process.env, ...developers.suite.oauthEnv, LOG_LEVEL: 'warn' },
  });

  const kids = await vi.waitFor(
    async () => {
      const published = await publishedKids();
      expect(published).toHaveLength(2);
      return published;
    },
    { timeout: 15_000, interval: 100 },
  );
  const newKid = kids.find((kid) => kid !== oldKid)!;
  // The same command rotates the RS256 key of ID tokens (docs/tokens.md #34).
  const rsaKids = await publishedKids('RS256');
  expect(rsaKids).toHaveLength(2);
  expect(rsaKids).toContain(oldRsaKid);
  const after = await vi.waitFor(
    async () => {
      const token = await accessToken(basic);
      expect(decodeProtectedHeader(token).kid).toBe(newKid);
      return token;
    },
    { timeout: 15_000, interval: 100 },
  );
  // A resource server holding the published JWKS verifies both generations.
  await expect(verifyAtJwks(developers.suite, before)).resolves.toBeTruthy();
  await expect(verifyAtJwks(developers.suite, after)).resolves.toBeTruthy();
});
