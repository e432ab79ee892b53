import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { HostileUpstream } from '../support/hostile-upstream.js';
import { UpstreamProvider } from '../support/upstream-provider.js';
import { useSuite, type SuiteContext } from '../support/use-suite.js';

export interface Upstreams {
  /** node-oidc-provider, the real thing. */
  real: UpstreamProvider;
  hostile: HostileUpstream;
}

export interface FederationContext extends SuiteContext {
  readonly upstreams: Upstreams;
}

/**
 * A providers-file entry (docs/federation.md) for `upstream` under `id`, asking for
 * `openid email`; the rules (trustEmail, createAccounts) are the caller's, absent meaning false.
 */
export function providerEntry(
  upstream: Pick<UpstreamProvider, 'issuer' | 'clientId' | 'clientSecret'>,
  entry: { id: string; displayName: string; trustEmail?: boolean; createAccounts?: boolean },
): Record<string, unknown> {
  const { issuer, clientId, clientSecret } = upstream;
  return { ...entry, issuer, clientId, clientSecret, scopes: 'openid email' };
}

/**
 * Both upstreams started and the providers file written from what `entries` makes of them,
 * before the suite that reads it starts (interface.md 4.14); both stopped and the file removed
 * afterwards. The suite is the caller's: it passes `file` as UPSTREAM_IDPS_FILE.
 */
export function useUpstreamProviders(entries: (upstreams: Upstreams) => unknown[]): {
  file: string;
  upstreams(): Upstreams;
} {
  const file = join(mkdtempSync(join(tmpdir(), 'upstream-idps-')), 'upstream-idps.json');
  let upstreams: Upstreams | undefined;
  beforeAll(async () => {
    upstreams = {
      real: await UpstreamProvider.start(),
      hostile: await HostileUpstream.start({ sub: 'hostile-user', email: 'hostile-user@upstream.example' }),
    };
    writeFileSync(file, JSON.stringify(entries(upstreams)));
  });
  afterAll(async () => {
    await upstreams?.real.close();
    await upstreams?.hostile.close();
    rmSync(dirname(file), { recursive: true, force: true });
  });
  return {
    file,
    upstreams() {
      if (!upstreams) throw new Error('useUpstreamProviders(): upstreams exist once beforeAll has run');
      return upstreams;
    },
  };
}

/**
 * The suite with upstreams (interface.md 4.14): both upstreams start first, the providers
 * file is written from what `entries` makes of them, then the suite starts with it (loopback
 * upstreams allowed) and the real upstream learns the suite's callback.
 */
export function useFederation(entries: (upstreams: Upstreams) => unknown[]): FederationContext {
  const providers = useUpstreamProviders(entries);
  const context = useSuite({
    serviceEnv: { UPSTREAM_IDPS_FILE: providers.file, CIMD_ALLOW_INSECURE_LOOPBACK: 'true' },
  });
  beforeAll(async () => {
    await providers.upstreams().real.acceptRedirectsTo(context.url('/ui/federation/callback'));
  });
  return Object.defineProperty(Object.create(context) as SuiteContext, 'upstreams', {
    get: () => providers.upstreams(),
  }) as FederationContext;
}
