import type {
  BeginPasskeyRegistrationRequest,
  FinishPasskeyRegistrationRequest,
} from '@authz/proto/identity/v1/second_factors';
import { InvalidCodeError, NotFoundError } from '@authz/shared/errors';
import { SECOND_FACTOR_CHANGED_JOB } from '@authz/shared/mail';
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { AccountStore } from '../accounts/account-store.js';
import type { AuditLog } from '../audit/audit-log.js';
import { outboxMail } from '../recovery/account-token.js';
import {
  challengeOfClientData,
  storePasskeyChallenge,
  takePasskeyChallenge,
  type PasskeyChallengeDeps,
} from './passkey-challenge.js';
import { passkeyName } from './passkey-name.js';
import { parseJsonObject } from './parse-json-object.js';
import type { PasskeyStore, StoredPasskey } from './passkey-store.js';
import { relyingPartyOf } from './relying-party.js';

export interface PasskeyRegistrationDeps extends PasskeyChallengeDeps {
  accounts: Pick<AccountStore, 'findById'>;
  passkeys: PasskeyStore;
  audit: AuditLog;
  issuer: string;
  outboxKey: Buffer;
  onMailQueued(): void;
}

/**
 * docs/strong-authentication.md #15, #16: options for a discoverable credential with user
 * verification, excluding the user's passkeys; the user handle is the account id (WebAuthn
 * Level 3 section 14.6.1: no personal data in it).
 */
export async function beginPasskeyRegistration(
  deps: PasskeyRegistrationDeps,
  request: BeginPasskeyRegistrationRequest,
): Promise<string> {
  const user = await deps.accounts.findById(request.userId);
  if (!user) throw new NotFoundError({ detail: 'no such account' });
  const rp = relyingPartyOf(deps.issuer);
  const existing = await deps.passkeys.list(user.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.rpId,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    userDisplayName: user.name ?? user.email,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credentialId,
      transports: passkey.transports,
    })),
    authenticatorSelection: {
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'required',
    },
  });
  await storePasskeyChallenge(deps, options.challenge, { kind: 'registration', userId: user.id });
  return JSON.stringify(options);
}

/** Verifies the new credential against a challenge this user was given, then stores it. */
export async function finishPasskeyRegistration(
  deps: PasskeyRegistrationDeps,
  request: FinishPasskeyRegistrationRequest,
): Promise<StoredPasskey> {
  const name = passkeyName(request.name, 'Passkey');
  const response = parseJsonObject(request.responseJson) as RegistrationResponseJSON | undefined;
  const challenge = challengeOfClientData(response?.response?.clientDataJSON);
  const ceremony = challenge === undefined ? undefined : await takePasskeyChallenge(deps, challenge);
  const refuse = async (detail: string): Promise<never> => {
    await deps.audit.record({
      type: 'second_factor_failure',
      actorUserId: request.userId,
      origin: request.origin,
      details: { passkeyRegistration: true },
    });
    throw new InvalidCodeError({ message: 'The passkey could not be verified', detail });
  };
  if (!response || ceremony?.kind !== 'registration' || ceremony.userId !== request.userId) {
    return refuse('unknown challenge');
  }
  const rp = relyingPartyOf(deps.issuer);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge!,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: true,
    });
  } catch {
    return refuse('attestation does not verify');
  }
  if (!verified.verified) return refuse('attestation does not verify');
  const user = await deps.accounts.findById(request.userId);
  if (!user) throw new NotFoundError({ detail: 'no such account' });
  const info = verified.registrationInfo;
  const stored = await deps.passkeys.add(
    {
      userId: user.id,
      credentialId: info.credential.id,
      publicKey: info.credential.publicKey,
      signCount: info.credential.counter,
      transports: info.credential.transports ?? [],
      backupEligible: info.credentialDeviceType === 'multiDevice',
      backedUp: info.credentialBackedUp,
      name,
    },
    outboxMail(deps, SECOND_FACTOR_CHANGED_JOB, { to: user.email, factor: 'passkey', change: 'added' }),
  );
  if (!stored) return refuse('credential already registered');
  deps.onMailQueued();
  await deps.audit.record({
    type: 'passkey_registered',
    actorUserId: user.id,
    origin: request.origin,
    details: { passkeyId: stored.id },
  });
  return stored;
}
