import { InvalidClientError } from '@authz/shared/errors';
import { describe, expect, it, vi } from 'vitest';
import type { AuthenticatedClient } from '../protocol/client-authentication/authenticated-client.js';
import type { PresentedClientCredentials } from '../protocol/client-authentication/clients-port.js';
import { AuthenticationCache } from './authentication-cache.js';

function client(clientId: string): AuthenticatedClient {
  return {
    id: `record-${clientId}`,
    clientId,
    name: clientId,
    source: 'pre_registered',
    method: 'client_secret_basic',
    grantTypes: ['client_credentials'],
    scopes: [],
    audienceList: [],
    audience: clientId,
    isAgent: false,
    agentScopeModes: [],
    redirectUris: [],
    requirePkce: true,
    postLogoutRedirectUris: [],
    backchannelLogoutSessionRequired: false,
    idTokenSignedResponseAlg: 'EdDSA',
    requirePushedAuthorizationRequests: false,
    dpopBoundAccessTokens: false,
  };
}

function basic(
  clientId: string,
  secret = 'secret',
  grantType = 'client_credentials',
): PresentedClientCredentials {
  return { basic: { clientId, clientSecret: secret }, grantType, sharedSecretOnly: false };
}

/** A cache on a clock the test moves, already subscribed, and a counted clients service. */
function setUp(options: { maxEntries?: number } = {}) {
  let now = 1_000_000;
  const cache = new AuthenticationCache({ ...options, now: () => now });
  cache.activate();
  const service = vi.fn(async (credentials: PresentedClientCredentials) =>
    client(credentials.basic?.clientId ?? credentials.bodyClientId ?? ''),
  );
  const authenticate = (credentials: PresentedClientCredentials) =>
    cache.authenticate(credentials, () => service(credentials));
  return { cache, service, authenticate, advance: (ms: number) => (now += ms) };
}

describe('AuthenticationCache (docs/tokens.md #16, docs/decisions.md #28)', () => {
  it('answers a returning client from memory', async () => {
    const { service, authenticate } = setUp();
    const first = await authenticate(basic('a'));
    expect(await authenticate(basic('a'))).toBe(first);
    expect(service).toHaveBeenCalledTimes(1);
  });

  it('misses on any other input: secret, method, grant type, shared-secret-only', async () => {
    const { service, authenticate } = setUp();
    await authenticate(basic('a'));
    await authenticate(basic('a', 'other secret'));
    await authenticate(basic('a', 'secret', 'refresh_token'));
    await authenticate({
      bodyClientId: 'a',
      bodyClientSecret: 'secret',
      grantType: 'client_credentials',
      sharedSecretOnly: false,
    });
    await authenticate({ ...basic('a'), sharedSecretOnly: true });
    await authenticate({ ...basic('a'), bodyClientSecret: 'secret' });
    expect(service).toHaveBeenCalledTimes(6);
  });

  it('never keeps a failure', async () => {
    const { cache } = setUp();
    const refuse = vi.fn(async (): Promise<AuthenticatedClient> => {
      throw new InvalidClientError();
    });
    await expect(cache.authenticate(basic('a'), refuse)).rejects.toBeInstanceOf(InvalidClientError);
    await expect(cache.authenticate(basic('a'), refuse)).rejects.toBeInstanceOf(InvalidClientError);
    expect(refuse).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
  });

  it('never keeps an answer to a client assertion (single use, RFC 7523 section 3)', async () => {
    const { cache, service, authenticate } = setUp();
    const withAssertion = {
      bodyClientId: 'a',
      clientAssertionType: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      clientAssertion: 'eyJ.x.y',
      grantType: 'client_credentials',
      sharedSecretOnly: false,
    };
    await authenticate(withAssertion);
    await authenticate(withAssertion);
    expect(service).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
  });

  it('forgets an entry after 30 seconds', async () => {
    const { service, authenticate, advance } = setUp();
    await authenticate(basic('a'));
    advance(29_999);
    await authenticate(basic('a'));
    expect(service).toHaveBeenCalledTimes(1);
    advance(1);
    await authenticate(basic('a'));
    expect(service).toHaveBeenCalledTimes(2);
  });

  it('is bounded: the oldest entry goes first', async () => {
    const { cache, service, authenticate } = setUp({ maxEntries: 2 });
    await authenticate(basic('a'));
    await authenticate(basic('b'));
    await authenticate(basic('c'));
    expect(cache.size).toBe(2);
    await authenticate(basic('c'));
    await authenticate(basic('b'));
    expect(service).toHaveBeenCalledTimes(3);
    await authenticate(basic('a'));
    expect(service).toHaveBeenCalledTimes(4);
  });

  it('drops every entry of a named client and only those', async () => {
    const { cache, service, authenticate } = setUp();
    await authenticate(basic('a'));
    await authenticate(basic('a', 'secret', 'refresh_token'));
    await authenticate(basic('b'));
    cache.dropClient('a');
    expect(cache.size).toBe(1);
    await authenticate(basic('b'));
    expect(service).toHaveBeenCalledTimes(3);
    await authenticate(basic('a'));
    expect(service).toHaveBeenCalledTimes(4);
  });

  it('is bypassed while not subscribed: nothing answered, nothing kept', async () => {
    const { cache, service, authenticate } = setUp();
    await authenticate(basic('a'));
    cache.deactivate();
    await authenticate(basic('a'));
    await authenticate(basic('a'));
    expect(service).toHaveBeenCalledTimes(3);
    expect(cache.size).toBe(0);
    cache.activate();
    await authenticate(basic('a'));
    await authenticate(basic('a'));
    expect(service).toHaveBeenCalledTimes(4);
  });

  it('starts empty on every (re)subscription', async () => {
    const { cache, service, authenticate } = setUp();
    await authenticate(basic('a'));
    cache.activate();
    expect(cache.size).toBe(0);
    await authenticate(basic('a'));
    expect(service).toHaveBeenCalledTimes(2);
  });

  it('does not keep an answer that was in flight across an invalidation', async () => {
    const { cache, authenticate } = setUp();
    let answer!: (value: AuthenticatedClient) => void;
    const inFlight = cache.authenticate(basic('a'), () => new Promise((resolve) => (answer = resolve)));
    cache.dropClient('a');
    answer(client('a'));
    await inFlight;
    expect(cache.size).toBe(0);
    await authenticate(basic('a'));
    expect(cache.size).toBe(1);
  });
});
