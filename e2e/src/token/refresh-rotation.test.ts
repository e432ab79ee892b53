import { describe, expect, it } from 'vitest';
import {
  authorizedTokens,
  INVALID_GRANT,
  REFRESH_TOKEN_REUSED,
  newAppClient,
  newUser,
  refresh,
  useCodeFlow,
} from '../support/code-flow.js';

// interface.md 2.5 and docs/decisions.md #7 through the gateway: refresh tokens issued by the code grant
// rotate on every use; presenting a rotated one revokes the whole family (OAuth 2.1 4.3.1).
const flow = useCodeFlow();

describe.each([
  ['confidential', 'client_secret_basic'],
  ['public', 'none'],
])('refresh rotation, %s client', (_kind, tokenEndpointAuthMethod) => {
  it('rotates, never returns an ID token, and reuse revokes the family', async () => {
    const client = await newAppClient(flow, { tokenEndpointAuthMethod });
    const first = await authorizedTokens(flow, client, await newUser(flow));

    const second = await refresh(flow, client, first.refresh_token as string);
    expect(second.status).toBe(200);
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(second.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      expires_in: 900,
      token_type: 'Bearer',
      scope: 'openid email',
    });
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);

    const third = await refresh(flow, client, second.body.refresh_token as string);
    expect(third.status).toBe(200);

    // The second token was rotated away: presenting it again is a replay.
    const replay = await refresh(flow, client, second.body.refresh_token as string);
    expect({ status: replay.status, body: replay.body }).toEqual({ status: 400, body: REFRESH_TOKEN_REUSED });
    // ... which revokes the newest token of the family too.
    const newest = await refresh(flow, client, third.body.refresh_token as string);
    expect({ status: newest.status, body: newest.body }).toEqual({ status: 400, body: INVALID_GRANT });
  });
});

describe('concurrent use of one refresh token (docs/architecture.md "Scale-out")', () => {
  it('never succeeds twice', async () => {
    const client = await newAppClient(flow);
    const user = await newUser(flow);
    for (let round = 0; round < 3; round += 1) {
      const tokens = await authorizedTokens(flow, client, user);
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => refresh(flow, client, tokens.refresh_token as string)),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 400, 400, 400]);
      // A loser either meets the rotated token (reuse, which revokes the family) or the family
      // another loser just revoked (bare: nothing the client can do differently).
      for (const answer of answers.filter(({ status }) => status === 400))
        expect([INVALID_GRANT, REFRESH_TOKEN_REUSED]).toContainEqual(answer.body);
    }
  });
});

describe('refresh tokens of one client', () => {
  it('cannot be used by another client', async () => {
    const client = await newAppClient(flow);
    const other = await newAppClient(flow);
    const tokens = await authorizedTokens(flow, client, await newUser(flow));
    const stolen = await refresh(flow, other, tokens.refresh_token as string);
    expect(stolen.status).toBe(400);
    expect(stolen.body).toEqual(INVALID_GRANT);
  });
});
