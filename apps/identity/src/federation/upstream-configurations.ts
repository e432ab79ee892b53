import { outboundFetch, type OutboundPolicy } from '@authz/shared/outbound';
import * as client from 'openid-client';
import type { UpstreamProvider } from './upstream-providers-file.js';

/** Discovery documents, key sets and token responses are small. */
const UPSTREAM_MAX_BYTES = 256 * 1024;
const UPSTREAM_TIMEOUT_MS = 5_000;
/** docs/federation.md #4: discovery is fetched again after an hour, or after a failure. */
const DISCOVERY_CACHE_MS = 60 * 60_000;

export interface UpstreamConfigurations {
  /** The provider's relying-party configuration, discovered once and cached. */
  get(provider: UpstreamProvider): Promise<client.Configuration>;
}

/**
 * openid-client configurations over the SSRF-safe outbound client (docs/federation.md #4):
 * discovery, JWKS, token and UserInfo requests all go through it, so an upstream's metadata
 * cannot point identity at an internal address. openid-client keeps the fetched JWKS in the
 * configuration and refetches it on an unknown `kid`; a configuration lives an hour.
 */
export function upstreamConfigurations(
  policy: Pick<OutboundPolicy, 'allowInsecureLoopback'>,
): UpstreamConfigurations {
  const fetch = outboundFetch({
    ...policy,
    maxBytes: UPSTREAM_MAX_BYTES,
    timeoutMs: UPSTREAM_TIMEOUT_MS,
  }) as unknown as client.CustomFetch;
  const cache = new Map<string, { expiresAt: number; configuration: Promise<client.Configuration> }>();
  return {
    get(provider) {
      const cached = cache.get(provider.id);
      if (cached && cached.expiresAt > Date.now()) return cached.configuration;
      const configuration = discover(provider, fetch, policy.allowInsecureLoopback);
      cache.set(provider.id, { expiresAt: Date.now() + DISCOVERY_CACHE_MS, configuration });
      configuration.catch(() => {
        if (cache.get(provider.id)?.configuration === configuration) cache.delete(provider.id);
      });
      return configuration;
    },
  };
}

async function discover(
  provider: UpstreamProvider,
  fetch: client.CustomFetch,
  allowInsecureLoopback: boolean,
): Promise<client.Configuration> {
  const issuer = new URL(provider.issuer);
  return await client.discovery(
    issuer,
    provider.clientId,
    // ID tokens signed with RS256, openid-client's default and the one algorithm OIDC Core 1.0
    // section 15.1 requires every provider to support (docs/federation.md #4).
    undefined,
    client.ClientSecretBasic(provider.clientSecret),
    {
      [client.customFetch]: fetch,
      execute: [
        // OIDC Core 1.0 section 3.1.3.7 lets a client skip the ID token's signature when it came
        // straight from the token endpoint over TLS; docs/federation.md #4 does not: the
        // signature is checked against the upstream's JWKS (openid-client's non-repudiation).
        client.enableNonRepudiationChecks,
        // The outbound policy still refuses every http URL but loopback ones, and those only
        // under the test flag (CIMD_ALLOW_INSECURE_LOOPBACK).
        ...(allowInsecureLoopback && issuer.protocol === 'http:' ? [client.allowInsecureRequests] : []),
      ],
      timeout: UPSTREAM_TIMEOUT_MS / 1000,
    },
  );
}
