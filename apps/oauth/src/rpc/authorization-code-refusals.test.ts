import { keyedHash } from '@authz/shared/crypto';
import { InvalidGrantError, InvalidRequestError, UnauthorizedError } from '@authz/shared/errors';
import { describe, expect, it } from 'vitest';
import { refusal, useCodeGrant } from './test/use-code-grant.js';

// RFC 6749 4.1.3 and RFC 7636 4.6 (docs/authorization.md #11-#14): codes the token endpoint refuses,
// and a code used twice.
const { alice, web, other, single, source, flow, verify, refresh, withDatabase } = useCodeGrant();

describe('authorization_code grant: refusals', () => {
  it('requires code and refuses unknown or malformed ones', async () => {
    const missing = await refusal(flow.redeem(web, 'x', 'v'.repeat(43), { code: undefined }));
    expect(missing).toBeInstanceOf(InvalidRequestError);
    for (const code of ['A'.repeat(43), 'not a code', 'A'.repeat(44)]) {
      expect(await refusal(flow.redeem(web, code, 'v'.repeat(43)))).toBeInstanceOf(InvalidGrantError);
    }
  });

  it('refuses PKCE failures without consuming the code', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    for (const wrong of [
      undefined,
      'v'.repeat(43),
      verifier.slice(0, 42),
      `${verifier.slice(0, 42)}+`,
      'v'.repeat(129),
    ]) {
      const error = await refusal(flow.redeem(web, code, verifier, { code_verifier: wrong }));
      expect(error, String(wrong)).toBeInstanceOf(InvalidGrantError);
    }
    expect((await flow.redeem(web, code, verifier)).accessToken).toEqual(expect.any(String));
  });

  it("refuses another client's code without consuming it", async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    expect(await refusal(flow.redeem(other, code, verifier))).toBeInstanceOf(InvalidGrantError);
    expect((await flow.redeem(web, code, verifier)).accessToken).toEqual(expect.any(String));
  });

  it('requires the redirect_uri of the authorization request when it carried one', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    for (const redirectUri of [undefined, 'https://app.example/second', 'https://app.example/cb/']) {
      const error = await refusal(flow.redeem(web, code, verifier, { redirect_uri: redirectUri }));
      expect(error).toBeInstanceOf(InvalidGrantError);
      expect(error.message).toBe('redirect_uri does not match the authorization request');
    }
    expect((await flow.redeem(web, code, verifier)).accessToken).toEqual(expect.any(String));
  });

  it('accepts an omitted redirect_uri when the authorization request omitted it too', async () => {
    const first = await flow.obtainCode(single, alice, { redirect_uri: undefined });
    expect(first.redirect.origin).toBe('https://single.example');
    expect(
      await refusal(
        flow.redeem(single, first.code, first.verifier, { redirect_uri: 'https://x.example/cb' }),
      ),
    ).toBeInstanceOf(InvalidGrantError);
    await flow.redeem(single, first.code, first.verifier, { redirect_uri: undefined });
    const second = await flow.obtainCode(single, alice, { redirect_uri: undefined });
    await flow.redeem(single, second.code, second.verifier);
  });

  it('refuses an expired code', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    const key = Buffer.from(source.SECRET_HASH_KEY!, 'hex');
    await withDatabase((db) =>
      db.query(
        `UPDATE oauth.authorization_codes SET expires_at = now() - interval '1 second' WHERE code_hash = $1`,
        [keyedHash(key, code)],
      ),
    );
    expect(await refusal(flow.redeem(web, code, verifier))).toBeInstanceOf(InvalidGrantError);
  });
});

describe('authorization_code grant: a code used twice', () => {
  it('is refused and revokes what the first redemption issued', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    const tokens = await flow.redeem(web, code, verifier);
    expect(await refusal(flow.redeem(web, code, verifier))).toBeInstanceOf(InvalidGrantError);
    expect(await refusal(verify(tokens.accessToken))).toBeInstanceOf(UnauthorizedError);
    expect(await refusal(refresh(web, tokens.refreshToken!))).toBeInstanceOf(InvalidGrantError);
  });

  it('revokes even when redeemed concurrently: one answer, and then nothing stays usable', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    const outcomes = await Promise.allSettled([
      flow.redeem(web, code, verifier),
      flow.redeem(web, code, verifier),
    ]);
    const rejected = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(rejected.length).toBeGreaterThanOrEqual(1);
    for (const { reason } of rejected) expect(reason).toBeInstanceOf(InvalidGrantError);
    for (const outcome of outcomes) {
      if (outcome.status !== 'fulfilled') continue;
      expect(await refusal(verify(outcome.value.accessToken))).toBeInstanceOf(UnauthorizedError);
      expect(await refusal(refresh(web, outcome.value.refreshToken!))).toBeInstanceOf(InvalidGrantError);
    }
  });
});
