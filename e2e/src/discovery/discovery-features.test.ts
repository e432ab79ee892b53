import { expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';

// interface.md 4.4: feature-gated metadata appears only when its flag is on.
const context = useSuite({ serviceEnv: { CIMD_ENABLED: 'true' } });

it('states client_id_metadata_document_supported while CIMD is enabled', async () => {
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    const body = (await (await fetch(context.url(path))).json()) as Record<string, unknown>;
    expect(body.client_id_metadata_document_supported).toBe(true);
  }
});
