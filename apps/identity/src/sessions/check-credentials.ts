import type { CheckCredentialsRequest } from '@authz/proto/identity/v1/identity';
import { keyedHash } from '@authz/shared/crypto';
import { InvalidCredentialsError, ValidationError, type FieldViolation } from '@authz/shared/errors';
import { emailKey } from '../accounts/email.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { openMfaChallenge, type MfaChallengeDeps } from '../second-factors/mfa-challenge.js';
import type { SecondFactorStore } from '../second-factors/second-factor-store.js';
import { openSignInSession, type OpenSignInSessionDeps, type SignIn } from './open-sign-in-session.js';

export interface CheckCredentialsDeps extends OpenSignInSessionDeps, MfaChallengeDeps {
  accounts: Pick<AccountStore, 'findForSignIn'>;
  secondFactors: Pick<SecondFactorStore, 'findTotp'>;
  hasher: PasswordHasher;
}

function requireFields(request: CheckCredentialsRequest): void {
  const problems: FieldViolation[] = [];
  if (request.email.trim() === '') problems.push({ path: 'email', message: 'is required' });
  if (request.password === '') problems.push({ path: 'password', message: 'is required' });
  if (problems.length > 0) throw new ValidationError(problems);
}

/** A session, or, for an account with a second factor, the mfa_token its second step needs. */
export type CheckedCredentials = (SignIn & { mfaToken?: undefined }) | { mfaToken: string };

/**
 * interface.md 4.2 POST /auth/login, docs/decisions.md #4: unknown email and wrong password give the same
 * error at the same cost (an argon2id verify either way). Success opens a session; a hosted
 * sign-in (interface.md 4.5, `browser_session`) also gets the session's cookie token. Both kinds are
 * audited alike, the hosted one marked `browserSession`. An account with a confirmed
 * authenticator app gets no session yet but an mfa_token for its second step
 * (docs/strong-authentication.md #6).
 */
export async function checkCredentials(
  deps: CheckCredentialsDeps,
  request: CheckCredentialsRequest,
): Promise<CheckedCredentials> {
  requireFields(request);
  const key = emailKey(request.email.trim());
  // PostgreSQL text cannot hold U+0000, so no account has such an address; looking it up would
  // fail the query. The dummy hash below still runs.
  const found = key.includes('\u0000') ? undefined : await deps.accounts.findForSignIn(key);
  const user = found?.user ?? null;
  const matches = await deps.hasher.verify(found?.passwordHash, request.password);
  const hostedMark: Record<string, boolean> = request.browserSession ? { browserSession: true } : {};
  // A disabled account is refused exactly like a wrong password (docs/admin-api.md #4).
  const disabled = user !== null && user.disabledAt !== null;
  if (!user || !matches || disabled) {
    await deps.audit.record({
      type: 'login_failure',
      actorUserId: user?.id,
      origin: request.origin,
      // The address itself is not kept for failures: a typo may be someone's password.
      details: {
        emailHash: keyedHash(deps.secretHashKey, `audit:${key}`),
        knownUser: user !== null,
        ...(disabled ? { disabled: true } : {}),
        ...hostedMark,
      },
    });
    throw new InvalidCredentialsError();
  }
  const totp = await deps.secondFactors.findTotp(user.id);
  if (totp?.confirmed) {
    return {
      mfaToken: await openMfaChallenge(deps, { userId: user.id, browserSession: request.browserSession }),
    };
  }
  return openSignInSession(deps, {
    user,
    amr: ['pwd'],
    browserSession: request.browserSession,
    origin: request.origin,
  });
}
