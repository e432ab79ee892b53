import {
  InvalidGrantError,
  InvalidScopeError,
  InvalidTargetError,
  UnauthorizedError,
} from '@authz/shared/errors';
import { describe, expect, it } from 'vitest';
import { refusal, useCodeGrant } from './test/use-code-grant.js';

// The refresh_token grant after an authorization code (RFC 6749 6, RFC 8707 2.2, docs/decisions.md #7).
const { alice, web, other, api, oauth, flow, verify, refresh } = useCodeGrant();

describe('refresh_token grant: resources stay bound (RFC 8707 2.2)', () => {
  it('keeps the authorized resources as aud and refuses others', async () => {
    const { code, verifier } = await flow.obtainCode(api, alice, {
      scope: 'openid',
      resource: 'https://api.example',
    });
    const first = await flow.redeem(api, code, verifier);
    const second = await refresh(api, first.refreshToken!);
    expect((await oauth.verifyWithJwks(second.accessToken)).payload.aud).toBe('https://api.example');
    const outside = await refusal(
      refresh(api, second.refreshToken!, [['resource', 'https://files.example']]),
    );
    expect(outside).toBeInstanceOf(InvalidTargetError);
    const named = await refresh(api, second.refreshToken!, [['resource', 'https://api.example']]);
    expect((await oauth.verifyWithJwks(named.accessToken)).payload.aud).toBe('https://api.example');
  });
});

describe('refresh_token grant for third-party clients (docs/decisions.md #7)', () => {
  it('rotates, narrows, refuses widening, never returns an ID token, and treats reuse as theft', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    const first = await flow.redeem(web, code, verifier);
    const second = await refresh(web, first.refreshToken!, [['scope', 'openid']]);
    expect(second).toMatchObject({ scope: 'openid', tokenType: 'Bearer' });
    expect(second.idToken).toBeUndefined();
    const { payload } = await oauth.verifyWithJwks(second.accessToken);
    expect(payload).toMatchObject({
      sub: alice.id,
      client_id: web.clientId,
      aud: web.clientId,
      scope: 'openid',
    });
    expect(payload.sid).toBe((await oauth.verifyWithJwks(first.accessToken)).payload.sid);

    const widened = await refusal(refresh(web, second.refreshToken!, [['scope', 'openid profile']]));
    expect(widened).toBeInstanceOf(InvalidScopeError);
    const third = await refresh(web, second.refreshToken!);
    expect(third.scope).toBe('openid email');
    expect(await refusal(refresh(other, third.refreshToken!))).toBeInstanceOf(InvalidGrantError);

    expect(await refusal(refresh(web, second.refreshToken!))).toBeInstanceOf(InvalidGrantError);
    expect(await refusal(refresh(web, third.refreshToken!))).toBeInstanceOf(InvalidGrantError);
    expect(await refusal(verify(third.accessToken))).toBeInstanceOf(UnauthorizedError);
  });

  it('lets exactly one of two concurrent refreshes through', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    const { refreshToken } = await flow.redeem(web, code, verifier);
    const outcomes = await Promise.allSettled([refresh(web, refreshToken!), refresh(web, refreshToken!)]);
    expect(outcomes.filter(({ status }) => status === 'fulfilled')).toHaveLength(1);
  });
});
