import type { CheckCredentialsRequest } from '@authz/proto/identity/v1/identity';
import { keyedHash, randomHexToken } from '@authz/shared/crypto';
import { InvalidCredentialsError, ValidationError, type FieldViolation } from '@authz/shared/errors';
import { emailKey } from '../accounts/email.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { Session, User } from '../generated/prisma/client.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { sessionTokenHash } from './browser-session-token.js';
import type { SessionStore } from './session-store.js';
import { sessionUserAgent } from './session-user-agent.js';

export interface CheckCredentialsDeps {
  accounts: Pick<AccountStore, 'findForSignIn'>;
  sessions: Pick<SessionStore, 'open'>;
  audit: AuditLog;
  hasher: PasswordHasher;
  secretHashKey: Buffer;
  sessionTtlSeconds: number;
}

function requireFields(request: CheckCredentialsRequest): void {
  const problems: FieldViolation[] = [];
  if (request.email.trim() === '') problems.push({ path: 'email', message: 'is required' });
  if (request.password === '') problems.push({ path: 'password', message: 'is required' });
  if (problems.length > 0) throw new ValidationError(problems);
}

export interface CheckedCredentials {
  user: User;
  session: Session;
  /** Only for a hosted sign-in: the session cookie value, never stored (docs/identity.md #11). */
  sessionToken?: string;
}

/**
 * interface.md 4.2 POST /auth/login, docs/decisions.md #4: unknown email and wrong password give the same
 * error at the same cost (an argon2id verify either way). Success opens a session; a hosted
 * sign-in (interface.md 4.5, `browser_session`) also gets the session's cookie token. Both kinds are
 * audited alike, the hosted one marked `browserSession`.
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
  const sessionToken = request.browserSession ? randomHexToken() : undefined;
  const authTime = new Date(Math.floor(Date.now() / 1000) * 1000);
  const session = await deps.sessions.open({
    userId: user.id,
    authTime,
    expiresAt: new Date(authTime.getTime() + deps.sessionTtlSeconds * 1000),
    tokenHash: sessionToken === undefined ? null : sessionTokenHash(deps.secretHashKey, sessionToken),
    userAgent: sessionUserAgent(request.origin),
  });
  await deps.audit.record({
    type: 'login_success',
    actorUserId: user.id,
    origin: request.origin,
    details: hostedMark,
  });
  return { user, session, ...(sessionToken === undefined ? {} : { sessionToken }) };
}
