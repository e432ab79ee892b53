import { afterAll, beforeAll } from 'vitest';
import { startConsentUi, type RunningConsentUi } from './consent-ui-harness.js';
import { FakeAuthorization } from './fake-authorization.js';
import { FakeIdentity } from '@authz/shared/testing/fake-identity';

export interface ConsentUiFixture {
  readonly ui: RunningConsentUi;
  readonly identity: FakeIdentity;
  readonly authorization: FakeAuthorization;
}

/** Call once at the top of a test file: consent-ui over gRPC, its upstreams test doubles. */
export function useConsentUi(options: { issuer?: string } = {}): ConsentUiFixture {
  const identity = new FakeIdentity();
  const authorization = new FakeAuthorization(identity);
  let ui: RunningConsentUi | undefined;
  beforeAll(async () => {
    const [identityUrl, oauthUrl] = await Promise.all([identity.start(), authorization.start()]);
    ui = await startConsentUi({ identity: identityUrl, oauth: oauthUrl, ...options });
  });
  afterAll(async () => {
    await ui?.close();
    await Promise.all([identity.close(), authorization.close()]);
  });
  return {
    get ui() {
      if (!ui) throw new Error('useConsentUi(): consent-ui runs only once beforeAll has run');
      return ui;
    },
    identity,
    authorization,
  };
}
