import type { RegisterRequest } from '@authz/proto/identity/v1/identity';
import { ConflictError, ValidationError, type FieldViolation } from '@authz/shared/errors';
import type { User } from '../generated/prisma/client.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { passwordProblem } from '../passwords/password-policy.js';
import { newVerification, type IssueVerificationDeps } from '../verification/issue-verification.js';
import type { AccountStore } from './account-store.js';
import { EMAIL_MESSAGE, emailKey, parseEmail } from './email.js';

export interface RegisterDeps extends IssueVerificationDeps {
  accounts: Pick<AccountStore, 'register'>;
  hasher: PasswordHasher;
  commonPasswords: ReadonlySet<string>;
  defaultRealmId: string;
  onMailQueued(): void;
}

/** interface.md 4.2 POST /auth/register: one violation per rejected field (interface.md 7). */
function validate(deps: RegisterDeps, request: RegisterRequest): { email: string; realmId: string } {
  const problems: FieldViolation[] = [];
  const email = parseEmail(request.email);
  // The gateway checks only types (docs/errors.md): presence is checked here, with the rest.
  if (!email) problems.push({ path: 'email', message: request.email.trim() ? EMAIL_MESSAGE : 'is required' });
  const passwordIssue = request.password
    ? passwordProblem(request.password, email, deps.commonPasswords)
    : 'is required';
  if (passwordIssue) problems.push({ path: 'password', message: passwordIssue });
  // docs/decisions.md #1: realmId may name the default realm or be omitted.
  if (request.realmId !== undefined && request.realmId.toLowerCase() !== deps.defaultRealmId) {
    problems.push({ path: 'realmId', message: 'must be the default realm' });
  }
  if (!email || problems.length > 0) throw new ValidationError(problems);
  return { email, realmId: deps.defaultRealmId };
}

/**
 * The user, its password credential, a verification token and the mail's outbox row commit
 * together (docs/decisions.md #29). A duplicate address, even one inserted concurrently, is the
 * unique index's call and answers a generic 409 (interface.md 4.2, docs/conventions.md #5).
 */
export async function register(deps: RegisterDeps, request: RegisterRequest): Promise<User> {
  const { email, realmId } = validate(deps, request);
  const passwordHash = await deps.hasher.hash(request.password);
  const user = await deps.accounts.register(
    { email, emailLower: emailKey(email), realmId, passwordHash },
    newVerification(deps, email),
    { type: 'registration', origin: request.origin },
  );
  if (!user) {
    throw new ConflictError({ message: 'Registration could not be completed', detail: 'duplicate email' });
  }
  deps.onMailQueued();
  return user;
}
