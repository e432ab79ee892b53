import { randomBytes, randomUUID } from 'node:crypto';
import { IdentityService } from '@authz/proto/identity/v1/identity';
import {
  InternalError,
  InvalidCredentialsError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '@authz/shared/errors';
import { GrpcServer } from '@authz/shared/grpc';
import { testLogger } from '@authz/shared/testing';

export interface FakeUser {
  id: string;
  email: string;
  password: string;
}

export interface FakeSession {
  /** The cookie value. */
  token: string;
  userId: string;
  csrfToken: string;
}

export interface RecordedSignIn {
  email: string;
  browserSession: boolean;
  origin: { ip: string; userAgent: string } | undefined;
}

/**
 * A test double of the IdentityService contract (identity is built elsewhere): fixed users,
 * a browser session per successful CheckCredentials, addresses that are rate limited.
 */
export class FakeIdentity {
  readonly users: FakeUser[] = [];
  readonly sessions = new Map<string, FakeSession>();
  readonly signIns: RecordedSignIn[] = [];
  readonly rateLimited = new Set<string>();
  private readonly server = new GrpcServer({ serviceName: 'identity', logger: testLogger() });

  addUser(email: string, password: string): FakeUser {
    const user = { id: randomUUID(), email, password };
    this.users.push(user);
    return user;
  }

  /** A signed-in browser, as a successful sign-in would leave it. Delete it to end it. */
  openSession(user: FakeUser): FakeSession {
    const session = {
      token: randomBytes(32).toString('hex'),
      userId: user.id,
      csrfToken: randomBytes(32).toString('hex'),
    };
    this.sessions.set(session.token, session);
    return session;
  }

  async start(): Promise<string> {
    const notHere = async (): Promise<never> => {
      throw new InternalError({ detail: 'not implemented by the test double' });
    };
    this.server.addService(IdentityService, {
      register: notHere,
      verifyEmail: notHere,
      resendVerification: notHere,
      getUser: notHere,
      endSession: notHere,
      ensureDeveloper: notHere,
      signInWithWallet: notHere,
      linkWalletCredential: notHere,
      checkCredentials: async ({ email, password, browserSession, origin }) => {
        this.signIns.push({ email, browserSession, origin });
        if (this.rateLimited.has(email)) throw new RateLimitedError();
        if (email === '' || password === '') {
          throw new ValidationError([{ path: email === '' ? 'email' : 'password', message: 'is required' }]);
        }
        const user = this.users.find((candidate) => candidate.email === email);
        if (!user || user.password !== password) throw new InvalidCredentialsError();
        const session = this.openSession(user);
        return {
          user: wireUser(user),
          sessionId: randomUUID(),
          authTime: BigInt(Math.floor(Date.now() / 1000)),
          ...(browserSession ? { sessionToken: session.token } : {}),
        };
      },
      getBrowserSession: async ({ sessionToken }) => {
        const session = this.sessions.get(sessionToken);
        const user = session && this.users.find((candidate) => candidate.id === session.userId);
        if (!session || !user) throw new UnauthorizedError();
        return {
          sessionId: randomUUID(),
          user: wireUser(user),
          authTime: BigInt(Math.floor(Date.now() / 1000)),
          csrfToken: session.csrfToken,
        };
      },
    });
    return `127.0.0.1:${await this.server.listen('127.0.0.1', 0)}`;
  }

  close(): Promise<void> {
    return this.server.close(100);
  }
}

function wireUser(user: FakeUser) {
  return {
    id: user.id,
    email: user.email,
    emailVerified: false,
    realmId: randomUUID(),
    createdAt: BigInt(Date.now()),
  };
}
