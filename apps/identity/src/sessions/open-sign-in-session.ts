import type { RequestOrigin } from '@authz/proto/identity/v1/identity';
import { randomHexToken } from '@authz/shared/crypto';
import type { AuditLog } from '../audit/audit-log.js';
import type { Session, User } from '../generated/prisma/client.js';
import { sessionTokenHash } from './browser-session-token.js';
import type { SessionStore } from './session-store.js';
import { sessionUserAgent } from './session-user-agent.js';

export interface OpenSignInSessionDeps {
  sessions: Pick<SessionStore, 'open'>;
  audit: AuditLog;
  secretHashKey: Buffer;
  sessionTtlSeconds: number;
}

export interface SignIn {
  user: User;
  session: Session;
  /** Only for a hosted sign-in: the session cookie value, never stored (docs/identity.md #11). */
  sessionToken?: string;
}

/**
 * The one place a completed sign-in becomes a session (docs/strong-authentication.md #8): a
 * password alone, a password and a second step, or a passkey. The session records how the
 * user authenticated (RFC 8176 `amr`) and when (OIDC auth_time), and the sign-in is audited.
 */
export async function openSignInSession(
  deps: OpenSignInSessionDeps,
  input: {
    user: User;
    amr: string[];
    browserSession: boolean;
    origin: RequestOrigin | undefined;
    auditDetails?: Record<string, string | boolean | string[]>;
  },
): Promise<SignIn> {
  const sessionToken = input.browserSession ? randomHexToken() : undefined;
  const authTime = new Date(Math.floor(Date.now() / 1000) * 1000);
  const session = await deps.sessions.open({
    userId: input.user.id,
    authTime,
    expiresAt: new Date(authTime.getTime() + deps.sessionTtlSeconds * 1000),
    tokenHash: sessionToken === undefined ? null : sessionTokenHash(deps.secretHashKey, sessionToken),
    userAgent: sessionUserAgent(input.origin),
    amr: input.amr,
  });
  await deps.audit.record({
    type: 'login_success',
    actorUserId: input.user.id,
    origin: input.origin,
    details: {
      ...(input.browserSession ? { browserSession: true } : {}),
      amr: input.amr,
      ...input.auditDetails,
    },
  });
  return { user: input.user, session, ...(sessionToken === undefined ? {} : { sessionToken }) };
}
