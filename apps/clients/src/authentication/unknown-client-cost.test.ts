import { randomBytes, randomUUID } from 'node:crypto';
import { keyedHash } from '@authz/shared/crypto';
import { InvalidClientError } from '@authz/shared/errors';
import { describe, expect, it } from 'vitest';
import { authenticateClient, type AuthenticationDeps } from './authenticate-client.js';

// docs/security.md "Enumeration": an unknown client that presents a secret does the work a
// known client with a wrong secret does, so neither the answer nor its cost tells them apart.
const secretHashKey = randomBytes(32);

/** The storage calls authentication makes, against a database holding `stored` (or nothing). */
function recordingDeps(stored: Record<string, unknown> | null) {
  const calls: string[] = [];
  const deps = {
    secretHashKey,
    clients: {
      findByClientId: async () => {
        calls.push('clients.findByClientId');
        return stored ?? undefined;
      },
    },
    apiKeys: {
      findLiveId: async () => {
        calls.push('apiKeys.findLiveId');
        return undefined;
      },
    },
  } as unknown as AuthenticationDeps;
  return { deps, calls };
}

function knownClient(clientId: string) {
  return {
    id: randomUUID(),
    clientId,
    enabled: true,
    source: 'pre_registered',
    environment: 'development',
    tokenEndpointAuthMethod: 'client_secret_basic',
    secretHash: keyedHash(secretHashKey, 'the-real-secret'),
  };
}

describe('AuthenticateClient for an unknown client', () => {
  it.each(['client_credentials', 'authorization_code'])(
    'makes the same calls as a wrong secret for a known one (%s)',
    async (grantType) => {
      const clientId = randomUUID();
      const request = { basic: { clientId, clientSecret: 'a-guessed-secret' }, grantType };
      const unknown = recordingDeps(null);
      const wrong = recordingDeps(knownClient(clientId));
      await expect(authenticateClient(unknown.deps, request)).rejects.toBeInstanceOf(InvalidClientError);
      await expect(authenticateClient(wrong.deps, request)).rejects.toBeInstanceOf(InvalidClientError);
      expect(unknown.calls).toEqual(wrong.calls);
      expect(unknown.calls).toContain('clients.findByClientId');
    },
  );

  it('also for a disabled client', async () => {
    const clientId = randomUUID();
    const request = { bodyClientId: clientId, bodyClientSecret: 'x', grantType: 'client_credentials' };
    const disabled = recordingDeps({ ...knownClient(clientId), enabled: false });
    const wrong = recordingDeps(knownClient(clientId));
    await expect(authenticateClient(disabled.deps, request)).rejects.toBeInstanceOf(InvalidClientError);
    await expect(authenticateClient(wrong.deps, request)).rejects.toBeInstanceOf(InvalidClientError);
    expect(disabled.calls).toEqual(['clients.findByClientId', 'apiKeys.findLiveId']);
    expect(disabled.calls).toEqual(wrong.calls);
  });
});
