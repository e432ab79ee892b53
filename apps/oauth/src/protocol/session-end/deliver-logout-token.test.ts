import { generateKeyPairSync } from 'node:crypto';
import { InvalidClientError } from '@authz/shared/errors';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { BackchannelLogoutJob } from './backchannel-port.js';
import {
  deliverLogoutToken,
  FinalDeliveryError,
  RetryableDeliveryError,
  type DeliveryDeps,
} from './deliver-logout-token.js';
import { BACKCHANNEL_LOGOUT_EVENT } from './logout-token.js';

// OIDC Back-Channel Logout 1.0 sections 2.4 and 2.5, docs/tokens.md #28 and #29.
const ISSUER = 'https://issuer.example';
const URI = 'https://rp.example/backchannel';
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const job: BackchannelLogoutJob = {
  clientId: 'client-1',
  sessionId: '0b7c2a3e-8f1d-4c55-9a7e-2d1f0c3b4a59',
  userId: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
};

function deps(
  send: DeliveryDeps['send'],
  client: Partial<AuthenticatedClient> | Error = { backchannelLogoutUri: URI },
): DeliveryDeps {
  return {
    config: { issuer: ISSUER } as DeliveryDeps['config'],
    keys: {
      signingKey: () => ({ kid: 'key-1', alg: 'EdDSA', privateKey }),
      verificationKey: async () => undefined,
    },
    clients: {
      authenticateClient: async () => {
        throw new Error('not used');
      },
      resolveClient: async () => {
        if (client instanceof Error) throw client;
        return client as AuthenticatedClient;
      },
    },
    send,
  };
}

describe('deliverLogoutToken', () => {
  it('POSTs a logout token with the claims of section 2.4 to the URI the client has now', async () => {
    const sent: { uri: string; token: string }[] = [];
    await deliverLogoutToken(
      deps(async (uri, token) => {
        sent.push({ uri, token });
        return { status: 200 };
      }),
      job,
    );
    expect(sent.map(({ uri }) => uri)).toEqual([URI]);
    const token = sent[0]!.token;
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'EdDSA', typ: 'logout+jwt', kid: 'key-1' });
    const { payload } = await jwtVerify(token, publicKey, { issuer: ISSUER, audience: 'client-1' });
    expect(payload).toEqual({
      iss: ISSUER,
      aud: 'client-1',
      sub: job.userId,
      sid: job.sessionId,
      iat: expect.any(Number),
      exp: payload.iat! + 120,
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    });
  });

  it('delivered on 2xx; rejected for good on 4xx but 408 and 429; retried on the rest and network failures', async () => {
    const outcome = async (send: DeliveryDeps['send']) => {
      try {
        await deliverLogoutToken(deps(send), job);
        return 'delivered';
      } catch (error) {
        if (error instanceof FinalDeliveryError) return error.outcome;
        if (error instanceof RetryableDeliveryError) return 'retry';
        throw error;
      }
    };
    const status = (code: number) => async () => ({ status: code });
    expect(await outcome(status(204))).toBe('delivered');
    expect(await outcome(status(400))).toBe('rejected');
    expect(await outcome(status(404))).toBe('rejected');
    expect(await outcome(status(408))).toBe('retry');
    expect(await outcome(status(429))).toBe('retry');
    expect(await outcome(status(503))).toBe('retry');
    expect(await outcome(status(302))).toBe('retry');
    expect(
      await outcome(async () => {
        throw new Error('connect ECONNREFUSED');
      }),
    ).toBe('retry');
  });

  it('drops the delivery when the client no longer has a URI or no longer resolves', async () => {
    const never = async () => {
      throw new Error('must not send');
    };
    for (const client of [{}, new InvalidClientError({ message: 'Unknown or disabled client' })]) {
      const error = await deliverLogoutToken(deps(never, client), job).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(FinalDeliveryError);
      expect((error as FinalDeliveryError).outcome).toBe('dropped');
    }
  });
});
