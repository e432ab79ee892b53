import { randomUUID } from 'node:crypto';
import { signCompactJws } from '../../keys/compact-jws.js';
import type { Registry } from '../../registry.js';
import type { BackchannelLogoutJob } from './backchannel-port.js';

/** OIDC Back-Channel Logout 1.0 section 2.4: the event member a logout token carries. */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** interface.md 4.3: exp at most two minutes after iat. */
export const LOGOUT_TOKEN_TTL_SECONDS = 120;

/**
 * OIDC Back-Channel Logout 1.0 section 2.4, interface.md 4.3: `typ` logout+jwt, signed like every
 * JWT of this server (EdDSA, the active key), `aud` the client, both `sub` and `sid` (the sid
 * every ID token of the session carried), a fresh `jti`, never `nonce`. Minted at each delivery
 * attempt, so a retried delivery never carries an expired token.
 */
export async function mintLogoutToken(
  { keys, config }: Pick<Registry, 'keys' | 'config'>,
  job: BackchannelLogoutJob,
  now = Date.now(),
): Promise<string> {
  const { kid, privateKey } = keys.signingKey(now);
  const iat = Math.floor(now / 1000);
  const claims = {
    iss: config.issuer,
    sub: job.userId,
    aud: job.clientId,
    iat,
    exp: iat + LOGOUT_TOKEN_TTL_SECONDS,
    jti: randomUUID(),
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    sid: job.sessionId,
  };
  return signCompactJws({ alg: 'EdDSA', typ: 'logout+jwt', kid }, claims, privateKey);
}
