import { randomBytes, randomUUID } from 'node:crypto';
import { IdentityService } from '@authz/proto/identity/v1/identity';
import {
  InternalError,
  InvalidCredentialsError,
  NotFoundError,
  UnauthorizedError,
} from '@authz/shared/errors';
import { GrpcServer } from '@authz/shared/grpc';
import { testLogger } from '@authz/shared/testing';

export interface FakeUser {
  id: string;
  email: string;
  emailVerified: boolean;
  password: string;
  name?: string;
  verifiedEmails: { email: string; source: string }[];
}

export interface FakeBrowserSession {
  /** The cookie value. */
  token: string;
  sessionId: string;
  userId: string;
  /** Epoch seconds. */
  authTime: number;
  csrfToken: string;
}

/**
 * A test double of the IdentityService contract (identity is built elsewhere): fixed users,
 * a session per successful CheckCredentials, browser sessions opened by the test, EndSession
 * calls recorded.
 */
export class FakeIdentity {
  readonly users = new Map<string, FakeUser>();
  readonly browserSessions = new Map<string, FakeBrowserSession>();
  readonly endedSessions: { sessionId: string; userId: string }[] = [];
  private readonly server = new GrpcServer({ serviceName: 'identity', logger: testLogger() });
  port = 0;

  addUser(email: string, password: string): FakeUser {
    const user = { id: randomUUID(), email, emailVerified: false, password, verifiedEmails: [] };
    this.users.set(user.id, user);
    return user;
  }

  /** A signed-in browser; `authTime` defaults to now. Delete it from the map to end it. */
  openBrowserSession(user: FakeUser, authTime = Math.floor(Date.now() / 1000)): FakeBrowserSession {
    const session = {
      token: randomBytes(32).toString('hex'),
      sessionId: randomUUID(),
      userId: user.id,
      authTime,
      csrfToken: randomBytes(32).toString('hex'),
    };
    this.browserSessions.set(session.token, session);
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
      ensureDeveloper: notHere,
      signInWithWallet: notHere,
      linkWalletCredential: notHere,
      checkCredentials: async ({ email, password }) => {
        const user = [...this.users.values()].find((candidate) => candidate.email === email);
        if (!user || user.password !== password) throw new InvalidCredentialsError();
        return {
          user: wireUser(user),
          sessionId: randomUUID(),
          authTime: BigInt(Math.floor(Date.now() / 1000)),
        };
      },
      getUser: async ({ userId }) => {
        const user = this.users.get(userId);
        if (!user) throw new NotFoundError();
        return { user: wireUser(user), verifiedEmails: user.verifiedEmails };
      },
      endSession: async ({ sessionId, userId }) => {
        this.endedSessions.push({ sessionId, userId });
        return {};
      },
      getBrowserSession: async ({ sessionToken }) => {
        const session = this.browserSessions.get(sessionToken);
        const user = session && this.users.get(session.userId);
        if (!session || !user) throw new UnauthorizedError();
        return {
          sessionId: session.sessionId,
          user: wireUser(user),
          authTime: BigInt(session.authTime),
          csrfToken: session.csrfToken,
        };
      },
    });
    this.port = await this.server.listen('127.0.0.1', 0);
    return `127.0.0.1:${this.port}`;
  }

  close(): Promise<void> {
    return this.server.close(100);
  }
}

function wireUser(user: FakeUser) {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    realmId: randomUUID(),
    createdAt: BigInt(Date.now()),
    ...(user.name === undefined ? {} : { name: user.name }),
  };
}
