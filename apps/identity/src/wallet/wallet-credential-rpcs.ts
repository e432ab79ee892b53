import type { IdentityService } from '@authz/proto/identity/v1/identity';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { toUserMessage } from '../accounts/user-view.js';
import type { Registry } from '../registry.js';
import { linkWalletCredential } from './link-wallet-credential.js';
import { signInWithWallet } from './sign-in-with-wallet.js';

type WalletCredentialRpcs = Pick<
  ServiceImplementation<typeof IdentityService>,
  'signInWithWallet' | 'linkWalletCredential'
>;

/** The wallet credential RPCs of IdentityService: thin translations (docs/conventions.md #2). */
export function walletCredentialRpcs(registry: Registry): WalletCredentialRpcs {
  return {
    async signInWithWallet(request) {
      const { user, session, sessionToken, csrfToken } = await signInWithWallet(registry, request);
      return {
        user: toUserMessage(user),
        sessionId: session.id,
        authTime: BigInt(Math.floor(session.authTime.getTime() / 1000)),
        sessionToken,
        csrfToken,
      };
    },
    async linkWalletCredential(request) {
      return { outcome: await linkWalletCredential(registry, request) };
    },
  };
}
