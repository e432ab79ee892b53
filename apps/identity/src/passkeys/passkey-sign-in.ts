import type { FinishPasskeySignInRequest } from '@authz/proto/identity/v1/second_factors';
import { InvalidCredentialsError } from '@authz/shared/errors';
import { generateAuthenticationOptions, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { AccountStore } from '../accounts/account-store.js';
import {
  openSignInSession,
  type OpenSignInSessionDeps,
  type SignIn,
} from '../sessions/open-sign-in-session.js';
import { signInAllowed } from '../sessions/sign-in-allowed.js';
import {
  challengeOfClientData,
  storePasskeyChallenge,
  takePasskeyChallenge,
  type PasskeyChallengeDeps,
} from './passkey-challenge.js';
import { verifyPasskeyAssertion } from './passkey-assertion.js';
import type { PasskeyStore } from './passkey-store.js';
import { parseJsonObject } from './parse-json-object.js';
import { relyingPartyOf } from './relying-party.js';

/** RFC 8176: a hardware-backed key, with user verification (docs/strong-authentication.md #5). */
export const PASSKEY_AMR = ['hwk', 'user'];

export interface PasskeySignInDeps extends PasskeyChallengeDeps, OpenSignInSessionDeps {
  accounts: Pick<AccountStore, 'findById'>;
  passkeys: PasskeyStore;
  issuer: string;
}

/** docs/strong-authentication.md #18: a discoverable-credential ceremony, no allowCredentials. */
export async function beginPasskeySignIn(deps: PasskeySignInDeps): Promise<string> {
  const rp = relyingPartyOf(deps.issuer);
  const options = await generateAuthenticationOptions({ rpID: rp.rpId, userVerification: 'required' });
  await storePasskeyChallenge(deps, options.challenge, { kind: 'sign-in' });
  return JSON.stringify(options);
}

/**
 * docs/strong-authentication.md #18: the assertion must answer a sign-in challenge we issued
 * (taken once), come from our origin for our RP ID with user verification, be signed by a
 * stored credential whose user handle matches, and move a non-zero counter forward. Every
 * refusal is the same InvalidCredentialsError; the session opens through openSignInSession.
 */
export async function finishPasskeySignIn(
  deps: PasskeySignInDeps,
  request: FinishPasskeySignInRequest,
  browserSession: boolean,
): Promise<SignIn> {
  const refuse = async (detail: string, userId?: string): Promise<never> => {
    await deps.audit.record({
      type: 'login_failure',
      ...(userId === undefined ? {} : { actorUserId: userId }),
      origin: request.origin,
      details: { passkey: true, reason: detail },
    });
    throw new InvalidCredentialsError({ detail });
  };
  const response = parseJsonObject(request.responseJson) as AuthenticationResponseJSON | undefined;
  const challenge = challengeOfClientData(response?.response?.clientDataJSON);
  const ceremony = challenge === undefined ? undefined : await takePasskeyChallenge(deps, challenge);
  if (!response || typeof response.id !== 'string' || ceremony?.kind !== 'sign-in') {
    return refuse('unknown challenge');
  }
  const outcome = await verifyPasskeyAssertion(deps, response, challenge!);
  if (!outcome.verified) return refuse(outcome.reason, outcome.userId);
  const { passkey } = outcome;
  const user = await deps.accounts.findById(passkey.userId);
  if (!user || !signInAllowed(user)) return refuse('account cannot sign in', passkey.userId);
  return openSignInSession(deps, {
    user,
    amr: PASSKEY_AMR,
    browserSession,
    origin: request.origin,
    auditDetails: { passkeyId: passkey.id },
  });
}
