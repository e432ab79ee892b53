import { toUserMessage } from '../accounts/user-view.js';
import type { SignIn } from '../sessions/open-sign-in-session.js';

/** A completed sign-in as CompleteSecondFactorResponse carries it (auth_time in epoch seconds, OIDC). */
export function signInMessage({ user, session, sessionToken }: SignIn) {
  return {
    user: toUserMessage(user),
    sessionId: session.id,
    authTime: BigInt(Math.floor(session.authTime.getTime() / 1000)),
    amr: session.amr,
    ...(sessionToken === undefined ? {} : { sessionToken }),
  };
}
