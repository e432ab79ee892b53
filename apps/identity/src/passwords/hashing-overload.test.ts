import { ServiceUnavailableError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, startIdentity, type IdentityHarness } from '../../test/identity-harness.js';

// docs/identity.md #16 over real gRPC: one hash at a time and no queue, with a cost high enough
// (a few hundred milliseconds) that two sign-ins fired together overlap in argon2id, even on a
// loaded machine.
const environment = useTestEnvironment();
let identity: IdentityHarness;
const credentials = { email: 'ivan@example.com', password: 'a fine passphrase', origin: ORIGIN };

beforeAll(async () => {
  identity = await startIdentity(environment, {
    ARGON2_ITERATIONS: '400',
    ARGON2_CONCURRENCY: '1',
    ARGON2_QUEUE: '0',
  });
  await identity.client.register({ email: credentials.email, password: credentials.password });
});
afterAll(() => identity.close());

describe('CheckCredentials while password hashing is saturated', () => {
  it('signs one in and refuses the other with a retryable 503, then signs in again', async () => {
    const outcomes = await Promise.allSettled([
      identity.client.checkCredentials(credentials),
      identity.client.checkCredentials(credentials),
    ]);
    const signedIn = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(signedIn).toHaveLength(1);
    expect(signedIn[0]!.value.user).toMatchObject({ email: credentials.email });
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(ServiceUnavailableError);
    expect(refused[0]).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      statusCode: 503,
      message: 'Service unavailable',
      retryAfterSeconds: 1,
    });

    const again = await identity.client.checkCredentials(credentials);
    expect(again.user).toMatchObject({ email: credentials.email });
  });

  it('refuses unknown addresses the same way, since the dummy verify waits for a slot too', async () => {
    const outcomes = await Promise.allSettled(
      ['nobody@example.com', 'noone@example.com'].map((email) =>
        identity.client.checkCredentials({ ...credentials, email }),
      ),
    );
    const codes = outcomes.map((outcome) => outcome.status === 'rejected' && outcome.reason.code).sort();
    expect(codes).toEqual(['INVALID_CREDENTIALS', 'SERVICE_UNAVAILABLE']);
  });
});
