import type { RegisterRequest } from '@authz/proto/identity/v1/identity';
import { ConflictError, ValidationError, type FieldViolation } from '@authz/shared/errors';
import { recordAudit } from '../audit/audit-log.js';
import { Prisma, type PrismaClient, type User } from '../generated/prisma/client.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { passwordProblem } from '../passwords/password-policy.js';
import { issueVerification, type IssueVerificationDeps } from '../verification/issue-verification.js';
import { EMAIL_MESSAGE, emailKey, parseEmail } from './email.js';

export interface RegisterDeps extends IssueVerificationDeps {
  prisma: PrismaClient;
  hasher: PasswordHasher;
  commonPasswords: ReadonlySet<string>;
  defaultRealmId: string;
  onMailQueued(): void;
}

/** interface.md 4.2 POST /auth/register: one violation per rejected field (interface.md 7). */
function validate(deps: RegisterDeps, request: RegisterRequest): { email: string; realmId: string } {
  const problems: FieldViolation[] = [];
  const email = parseEmail(request.email);
  if (!email) problems.push({ path: 'email', message: EMAIL_MESSAGE });
  const passwordIssue = passwordProblem(request.password, email, deps.commonPasswords);
  if (passwordIssue) problems.push({ path: 'password', message: passwordIssue });
  // docs/decisions.md #1: realmId may name the default realm or be omitted.
  if (request.realmId !== undefined && request.realmId.toLowerCase() !== deps.defaultRealmId) {
    problems.push({ path: 'realmId', message: 'must be the default realm' });
  }
  if (!email || problems.length > 0) throw new ValidationError(problems);
  return { email, realmId: deps.defaultRealmId };
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

/**
 * The user, its password credential, a verification token and the mail's outbox row commit
 * together (docs/decisions.md #29). A duplicate address, even one inserted concurrently, is the
 * unique index's call and answers a generic 409 (interface.md 4.2, docs/conventions.md #5).
 */
export async function register(deps: RegisterDeps, request: RegisterRequest): Promise<User> {
  const { email, realmId } = validate(deps, request);
  const passwordHash = await deps.hasher.hash(request.password);
  try {
    const user = await deps.prisma.$transaction(async (tx) => {
      const created = await tx.user.create({
        data: {
          email,
          emailLower: emailKey(email),
          realmId,
          passwordCredential: { create: { hash: passwordHash } },
        },
      });
      await issueVerification(tx, deps, created);
      await recordAudit(tx, { type: 'registration', actorUserId: created.id, origin: request.origin });
      return created;
    });
    deps.onMailQueued();
    return user;
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError({ message: 'Registration could not be completed', detail: 'duplicate email' });
    }
    throw error;
  }
}
