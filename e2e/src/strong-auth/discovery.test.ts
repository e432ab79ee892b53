import { describe, expect, it } from 'vitest';
import { getJson } from '../support/http.js';
import { useSuite } from '../support/use-suite.js';

// docs/strong-authentication.md #14: discovery states the acr classes, the claims that say how
// the user authenticated, and the prompt values (OIDC Discovery 1.0 section 3).
const context = useSuite();

describe('discovery of strong authentication', () => {
  it('lists acr_values_supported, acr/amr/auth_time/sid among claims_supported, and prompt_values_supported', async () => {
    const { status, body } = await getJson(`${context.suite.baseUrl}/.well-known/openid-configuration`);
    expect(status).toBe(200);
    expect(body.acr_values_supported).toEqual(['urn:authz:acr:password', 'urn:authz:acr:mfa']);
    expect(body.claims_supported).toEqual(expect.arrayContaining(['acr', 'amr', 'auth_time', 'sid']));
    expect(body.prompt_values_supported).toEqual(['none', 'login', 'consent']);
  });
});
