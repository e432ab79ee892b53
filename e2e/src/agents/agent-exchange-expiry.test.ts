import { describe, expect, it, vi } from 'vitest';
import { authorizedTokens, newUser, useCodeFlow } from '../support/code-flow.js';
import {
  claimsOf,
  describedError,
  exchange,
  registerAgent,
  registerWebApp,
} from '../support/exchange-helpers.js';

// docs/decisions.md #12: an exchanged token never outlives its subject, and an expired subject is
// refused. Access tokens live 3 s here (ACCESS_TOKEN_TTL), so clients come from dynamic
// registration: no developer token has to stay alive across the setup.
const flow = useCodeFlow({}, { ACCESS_TOKEN_TTL: '3' });

describe('agent token exchange and expiry', () => {
  it('caps exp at the subject token, and refuses the subject once it expired', async () => {
    const web = await registerWebApp(flow.suite, { scope: 'openid email' });
    const agent = await registerAgent(flow.suite, { scope: 'email' });
    const subject = (await authorizedTokens(flow, web, await newUser(flow), { scope: 'openid email' }))
      .access_token as string;

    const exchanged = await exchange(flow.suite, agent, subject, [['scope', 'email']]);
    expect(exchanged.status).toBe(200);
    const { exp } = claimsOf(subject);
    expect(claimsOf(exchanged.body.access_token).exp).toBe(exp);
    expect(exchanged.body.expires_in).toBeLessThanOrEqual(3);

    await vi.waitFor(
      async () => {
        const refused = await exchange(flow.suite, agent, subject, [['scope', 'email']]);
        expect({ status: refused.status, body: refused.body }).toEqual({
          status: 400,
          body: describedError('invalid_request', 'The subject token is not active'),
        });
      },
      { timeout: 10_000, interval: 250 },
    );
    // The token the agent received expired with its subject.
    const chained = await exchange(flow.suite, agent, exchanged.body.access_token as string);
    expect(chained.status).toBe(400);
  });
});
