import { decodeProtectedHeader } from 'jose';
import { expect, it, vi } from 'vitest';
import { basicAuth, newClient, requestToken, verifyAtJwks } from '../support/tokens.js';
import { useDevelopers } from '../support/use-developers.js';
import { adminCall, newAdmin, type AuditEventView } from '../support/admin-scenes.js';

// interface.md 4.15 signing keys: the two-phase rotation of docs/tokens.md #7 through the API
// (docs/admin-api.md #10). Keys reload every second here.
const developers = useDevelopers({}, { SIGNING_KEY_RELOAD_INTERVAL_MS: '1000' });

interface KeyView {
  kid: string;
  alg: string;
  state: string;
  createdAt: number;
  activatesAt: number;
  retiresAt: number | null;
  publishedUntil: number | null;
}

async function publishedKids(alg = 'EdDSA'): Promise<string[]> {
  const jwks = (await (await fetch(`${developers.suite.baseUrl}/.well-known/jwks.json`)).json()) as {
    keys: { kid: string; alg: string }[];
  };
  return jwks.keys.filter((key) => key.alg === alg).map((key) => key.kid);
}

it('lists the keys and rotates them: a second key is published, then signs; both generations verify', async () => {
  const admin = await newAdmin(developers.suite, developers.environment.databaseUrl);
  const client = await newClient(developers.suite, developers.alice.token);
  const basic = basicAuth(client.clientId, client.clientSecret!);
  const accessToken = async () => {
    const response = await requestToken(developers.suite, [['grant_type', 'client_credentials']], basic);
    expect(response.status).toBe(200);
    return response.body.access_token as string;
  };
  const before = await accessToken();
  const oldKid = decodeProtectedHeader(before).kid!;

  const listed = await adminCall<{ keys: KeyView[] }>(developers.suite, admin, 'GET', '/admin/signing-keys');
  expect(listed.status).toBe(200);
  expect(listed.body.keys.map((key) => [key.alg, key.state, key.retiresAt])).toEqual(
    expect.arrayContaining([
      ['EdDSA', 'active', null],
      ['RS256', 'active', null],
    ]),
  );
  expect(listed.body.keys.find((key) => key.alg === 'EdDSA')!.kid).toBe(oldKid);

  const rotated = await adminCall<{ keys: KeyView[]; activatesAt: number }>(
    developers.suite,
    admin,
    'POST',
    '/admin/signing-keys/rotate',
  );
  expect(rotated.status).toBe(200);
  expect(rotated.body.keys.map((key) => key.alg).sort()).toEqual(['EdDSA', 'RS256']);
  for (const key of rotated.body.keys) {
    expect(key).toEqual({
      kid: expect.any(String),
      alg: key.alg,
      state: 'pending',
      createdAt: expect.any(Number),
      activatesAt: rotated.body.activatesAt,
      retiresAt: null,
      publishedUntil: null,
    });
  }
  const newKid = rotated.body.keys.find((key) => key.alg === 'EdDSA')!.kid;
  expect(newKid).not.toBe(oldKid);

  // Published at once (within a reload interval on every replica), before it signs.
  await vi.waitFor(async () => expect((await publishedKids()).sort()).toEqual([oldKid, newKid].sort()), {
    timeout: 15_000,
    interval: 100,
  });
  expect(await publishedKids('RS256')).toHaveLength(2);

  const after = await vi.waitFor(
    async () => {
      const token = await accessToken();
      expect(decodeProtectedHeader(token).kid).toBe(newKid);
      return token;
    },
    { timeout: 15_000, interval: 100 },
  );
  await expect(verifyAtJwks(developers.suite, before)).resolves.toBeTruthy();
  await expect(verifyAtJwks(developers.suite, after)).resolves.toBeTruthy();

  const now = await adminCall<{ keys: KeyView[] }>(developers.suite, admin, 'GET', '/admin/signing-keys');
  const byKid = new Map(now.body.keys.map((key) => [key.kid, key]));
  expect(byKid.get(newKid)).toMatchObject({ state: 'active', retiresAt: null });
  expect(byKid.get(oldKid)).toMatchObject({
    state: 'retiring',
    retiresAt: rotated.body.activatesAt,
    publishedUntil: expect.any(Number),
  });

  const events = await adminCall<{ events: AuditEventView[] }>(
    developers.suite,
    admin,
    'GET',
    '/admin/audit-events?type=admin_signing_keys_rotated',
  );
  expect(events.body.events).toEqual([
    expect.objectContaining({
      actorUserId: admin.id,
      details: {
        kids: rotated.body.keys.map((key) => key.kid).join(' '),
        activatesAt: String(rotated.body.activatesAt),
      },
    }),
  ]);
});
