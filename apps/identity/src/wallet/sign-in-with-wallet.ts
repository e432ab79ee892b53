import type { SignInWithWalletRequest } from '@authz/proto/identity/v1/identity';
import { randomHexToken } from '@authz/shared/crypto';
import { NotFoundError } from '@authz/shared/errors';
import type { Session, User } from '../generated/prisma/client.js';
import { csrfTokenFor, sessionTokenHash } from '../sessions/browser-session-token.js';
import { sessionUserAgent } from '../sessions/session-user-agent.js';
import type { WalletCredentialStore } from './wallet-credential-store.js';
import { checkWalletCredential, walletSubjectHash } from './wallet-subject.js';

export interface SignInWithWalletDeps {
  walletCredentials: Pick<WalletCredentialStore, 'signIn'>;
  secretHashKey: Buffer;
  sessionTtlSeconds: number;
}

export interface WalletSignIn {
  user: User;
  session: Session;
  sessionToken: string;
  csrfToken: string;
}

/**
 * interface.md 2.6 and 4.5 wallet sign-in: the account the verified credential is linked to gets a
 * browser session, exactly like a hosted password sign-in (docs/identity.md #11, #12), so a
 * later wallet sign-in yields the same `sub`. A credential linked to nobody is NotFoundError:
 * no account is created or matched by email (docs/wallet.md "Account mapping").
 */
export async function signInWithWallet(
  deps: SignInWithWalletDeps,
  request: SignInWithWalletRequest,
): Promise<WalletSignIn> {
  const credential = checkWalletCredential(request.credential);
  const subjectHash = walletSubjectHash(deps.secretHashKey, credential.issuer, credential.subject);
  const sessionToken = randomHexToken();
  const authTime = new Date(Math.floor(Date.now() / 1000) * 1000);
  const signedIn = await deps.walletCredentials.signIn(
    subjectHash,
    { at: authTime, email: credential.email },
    {
      authTime,
      expiresAt: new Date(authTime.getTime() + deps.sessionTtlSeconds * 1000),
      tokenHash: sessionTokenHash(deps.secretHashKey, sessionToken),
      userAgent: sessionUserAgent(request.origin),
    },
    {
      type: 'login_success',
      origin: request.origin,
      details: { browserSession: true, wallet: true, issuer: credential.issuer },
    },
  );
  if (!signedIn) throw new NotFoundError({ detail: 'wallet credential linked to no account' });
  return { ...signedIn, sessionToken, csrfToken: csrfTokenFor(deps.secretHashKey, sessionToken) };
}
