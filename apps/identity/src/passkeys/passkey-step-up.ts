import type {
  BeginPasskeyStepUpRequest,
  FinishPasskeyStepUpRequest,
} from '@authz/proto/identity/v1/second_factors';
import { InvalidCodeError } from '@authz/shared/errors';
import { generateAuthenticationOptions, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { getBrowserSession } from '../sessions/get-browser-session.js';
import { checkSecondStepBudget, countSecondStepFailure } from '../second-factors/mfa-challenge.js';
import type { StepUpSessionDeps } from '../second-factors/step-up-session.js';
import { verifyPasskeyAssertion, type PasskeyAssertionDeps } from './passkey-assertion.js';
import {
  challengeOfClientData,
  storePasskeyChallenge,
  takePasskeyChallenge,
  type PasskeyChallengeDeps,
} from './passkey-challenge.js';
import { PASSKEY_AMR } from './passkey-sign-in.js';
import { parseJsonObject } from './parse-json-object.js';
import { relyingPartyOf } from './relying-party.js';

export type PasskeyStepUpDeps = Pick<
  StepUpSessionDeps,
  'sessions' | 'secretHashKey' | 'sessionSeenIntervalSeconds' | 'audit' | 'redis'
> &
  PasskeyChallengeDeps &
  PasskeyAssertionDeps &
  Parameters<typeof checkSecondStepBudget>[0];

/**
 * docs/strong-authentication.md #21: request options for a step-up of this session with one of
 * its user's passkeys (allowCredentials), user verification required. The challenge is stored
 * bound to the session, so no other session can answer it.
 */
export async function beginPasskeyStepUp(
  deps: PasskeyStepUpDeps,
  request: BeginPasskeyStepUpRequest,
): Promise<string> {
  const { session } = await getBrowserSession(deps, request.sessionToken);
  const passkeys = await deps.passkeys.list(session.userId);
  const rp = relyingPartyOf(deps.issuer);
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    userVerification: 'required',
    allowCredentials: passkeys.map((passkey) => ({
      id: passkey.credentialId,
      transports: passkey.transports as never,
    })),
  });
  await storePasskeyChallenge(deps, options.challenge, { kind: 'step-up', sessionId: session.id });
  return JSON.stringify(options);
}

/**
 * docs/strong-authentication.md #21: the assertion answers a step-up challenge of this very
 * session (taken once), verifies as a passkey sign-in's does, and its credential is the
 * session's user's. Then, as the authenticator app's step-up (#14), the session carries the
 * methods of both steps and auth_time becomes now. Every refusal is one InvalidCodeError,
 * counted and audited as a failed second step.
 */
export async function finishPasskeyStepUp(
  deps: PasskeyStepUpDeps,
  request: FinishPasskeyStepUpRequest,
): Promise<string[]> {
  const { session } = await getBrowserSession(deps, request.sessionToken);
  const { userId } = session;
  await checkSecondStepBudget(deps, userId);
  const refuse = async (reason: string): Promise<never> => {
    await countSecondStepFailure(deps, userId);
    await deps.audit.record({
      type: 'second_factor_failure',
      actorUserId: userId,
      origin: request.origin,
      details: { stepUp: true, passkey: true, reason },
    });
    throw new InvalidCodeError();
  };
  const response = parseJsonObject(request.responseJson) as AuthenticationResponseJSON | undefined;
  const challenge = challengeOfClientData(response?.response?.clientDataJSON);
  const ceremony = challenge === undefined ? undefined : await takePasskeyChallenge(deps, challenge);
  if (
    !response ||
    typeof response.id !== 'string' ||
    ceremony?.kind !== 'step-up' ||
    ceremony.sessionId !== session.id
  ) {
    return refuse('unknown challenge');
  }
  const outcome = await verifyPasskeyAssertion(deps, response, challenge!, userId);
  if (!outcome.verified) return refuse(outcome.reason);
  // RFC 8176 section 2: a password and a passkey are two factors, as with the app (#14).
  const amr = [...new Set([...session.amr, ...PASSKEY_AMR, 'mfa'])];
  const authTime = new Date(Math.floor(Date.now() / 1000) * 1000);
  await deps.sessions.reauthenticate(session.id, amr, authTime);
  await deps.audit.record({
    type: 'session_stepped_up',
    actorUserId: userId,
    origin: request.origin,
    details: { amr, secondFactor: 'passkey', passkeyId: outcome.passkey.id },
  });
  return amr;
}
