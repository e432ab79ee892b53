import { afterAll, describe, expect, it } from 'vitest';
import { authorizedTokens, newAppClient, newUser, useCodeFlow } from '../support/code-flow.js';
import { TestWallet } from '../support/test-wallet.js';
import { createWalletFixture, linkWallet, signedInBrowser } from '../support/wallet-test-setup.js';

// interface.md 4.3 UserInfo trust order (wallet, then oidc_*, then self_reported; docs/wallet.md #12): once
// a wallet credential with an attested email is linked, UserInfo names that address.
const fixture = await createWalletFixture();
const flow = useCodeFlow(fixture.gatewayEnv, fixture.serviceEnv);
afterAll(() => fixture.removeFiles());

async function userInfoEmail(token: string) {
  const response = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return response.json();
}

describe('UserInfo with a linked wallet', () => {
  it('prefers the wallet-attested address over the self-reported one', async () => {
    const user = await newUser(flow, { verified: true });
    const tokens = await authorizedTokens(flow, await newAppClient(flow), user, { scope: 'openid email' });
    const token = tokens.access_token as string;
    expect(await userInfoEmail(token)).toEqual({ sub: user.id, email: user.email, email_verified: true });

    const browser = await signedInBrowser(flow.suite.oauthEnv.IDENTITY_GRPC_URL!, user.email, true);
    const wallet = await TestWallet.create(fixture.issuer, {
      sub: 'userinfo-subject',
      email: 'holder@wallet.example',
    });
    // docs/wallet.md #16: linked once the starting browser confirms what the wallet presented.
    const url = (path: string) => `${flow.suite.baseUrl}${path}`;
    expect(await linkWallet({ url }, browser, wallet)).toBe('presented');

    expect(await userInfoEmail(token)).toEqual({
      sub: user.id,
      email: 'holder@wallet.example',
      email_verified: true,
    });
  });
});
