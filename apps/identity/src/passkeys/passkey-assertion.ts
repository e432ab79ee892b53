import { verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { PasskeyStore, StoredPasskey } from './passkey-store.js';
import { relyingPartyOf } from './relying-party.js';

export interface PasskeyAssertionDeps {
  passkeys: PasskeyStore;
  issuer: string;
}

export type AssertionOutcome =
  { verified: true; passkey: StoredPasskey } | { verified: false; reason: string; userId?: string };

/**
 * docs/strong-authentication.md #18 and #21, shared by passkey sign-in and step-up: the
 * assertion answers `challenge` (already taken from the store by the caller), comes from our
 * origin for our RP ID with user verification, is signed by a stored credential whose user
 * handle matches (and, with `expectedUserId`, belongs to that user), and moves a non-zero counter forward, which is then recorded.
 */
export async function verifyPasskeyAssertion(
  deps: PasskeyAssertionDeps,
  response: AuthenticationResponseJSON,
  challenge: string,
  expectedUserId?: string,
): Promise<AssertionOutcome> {
  const passkey = await deps.passkeys.findByCredentialId(response.id);
  if (!passkey) return { verified: false, reason: 'unknown credential' };
  // Checked before anything is verified or recorded: another user's passkey is not touched.
  if (expectedUserId !== undefined && passkey.userId !== expectedUserId) {
    return { verified: false, reason: 'credential of another user' };
  }
  const refused = (reason: string): AssertionOutcome => ({ verified: false, reason, userId: passkey.userId });
  const userHandle = response.response.userHandle;
  if (
    typeof userHandle !== 'string' ||
    Buffer.from(userHandle, 'base64url').toString('utf8') !== passkey.userId
  ) {
    return refused('user handle does not match');
  }
  const rp = relyingPartyOf(deps.issuer);
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: passkey.signCount,
        transports: passkey.transports as never,
      },
    });
  } catch {
    // simplewebauthn throws for a counter that did not move forward, too (WebAuthn Level 3
    // section 7.2 step 22: a possible clone).
    return refused('assertion does not verify');
  }
  if (!verified.verified) return refused('assertion does not verify');
  const info = verified.authenticationInfo;
  const used = await deps.passkeys.recordUse(
    passkey.id,
    { signCount: info.newCounter, backedUp: info.credentialBackedUp, expectedCount: passkey.signCount },
    new Date(),
  );
  if (!used) return refused('passkey changed meanwhile');
  return { verified: true, passkey };
}
