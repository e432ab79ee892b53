import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
 * The suite with upstreams (interface.md 4.14): both upstreams start first, the providers
 * file is written from what `entries` makes of them, then the suite starts with it (loopback
 * upstreams allowed) and the real upstream learns the suite's callback.
 */
export function useFederation(entries: (upstreams: Upstreams) => unknown[]): FederationContext {
  const file = join(mkdtempSync(join(tmpdir(), 'upstream-idps-')), 'upstream-idps.json');
  let upstreams: Upstreams | undefined;
  beforeAll(async () => {
    upstreams = {
      real: await UpstreamProvider.start(),
      hostile: await HostileUpstream.start({ sub: 'hostile-user', email: 'hostile-user@upstream.example' }),
    };
    writeFileSync(file, JSON.stringify(entries(upstreams)));
  });
  const context = useSuite({
    serviceEnv: { UPSTREAM_IDPS_FILE: file, CIMD_ALLOW_INSECURE_LOOPBACK: 'true' },
  });
  beforeAll(async () => {
    await upstreams!.real.acceptRedirectsTo(context.url('/ui/federation/callback'));
  });
  afterAll(async () => {
    await upstreams?.real.close();
    await upstreams?.hostile.close();
  });
  return Object.defineProperty(Object.create(context) as SuiteContext, 'upstreams', {
    get() {
      if (!upstreams) throw new Error('useFederation(): upstreams exist once beforeAll has run');
      return upstreams;
    },
  }) as FederationContext;
}
