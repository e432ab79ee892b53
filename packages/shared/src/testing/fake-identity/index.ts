import { randomBytes, randomUUID } from 'node:crypto';
import { AccountService } from '@authz/proto/identity/v1/accounts';
import { IdentityService } from '@authz/proto/identity/v1/identity';
import {
  InternalError,
  InvalidCredentialsError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '../../errors/index.js';
import { GrpcServer } from '../../grpc/index.js';
import type { ServiceImplementation } from '../../grpc/index.js';
import { testLogger } from '../service-probe.js';

export type IdentityImplementation = ServiceImplementation<typeof IdentityService>;

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

export interface RecordedSignIn {
  email: string;
  browserSession: boolean;
  origin: { ip: string; userAgent: string } | undefined;
}

export interface FakeIdentityOptions {
  /**
   * RPCs a test answers its own way, replacing the double's (or its "not implemented"
   * InternalError for Register, VerifyEmail, ResendVerification, EnsureDeveloper, CompleteSecondFactor,
   * StepUpSession and the wallet RPCs).
   */
  rpcs?: Partial<IdentityImplementation>;
}

/**
 * A test double of the IdentityService contract for the services that call identity:
 * users and browser sessions the test sets up, CheckCredentials recorded (an address in
 * `rateLimited` is refused, a success opens a browser session), GetUser, GetBrowserSession, and
 * EndSession recorded.
 */
export class FakeIdentity {
  /** By user id; delete one to make it unknown. */
  readonly users = new Map<string, FakeUser>();
  /** By cookie value; delete one to end it. */
  readonly browserSessions = new Map<string, FakeBrowserSession>();
  readonly signIns: RecordedSignIn[] = [];
  readonly rateLimited = new Set<string>();
  readonly endedSessions: { sessionId: string; userId: string }[] = [];
  /** The bound port once started. */
  port = 0;
  private readonly server = new GrpcServer({ serviceName: 'identity', logger: testLogger() });

  constructor(private readonly options: FakeIdentityOptions = {}) {}

  addUser(email: string, password: string): FakeUser {
    const user: FakeUser = { id: randomUUID(), email, emailVerified: false, password, verifiedEmails: [] };
    this.users.set(user.id, user);
    return user;
  }

  /** A signed-in browser, as a successful sign-in leaves it; `authTime` defaults to now. */
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

  /** Serves on a free loopback port; resolves with `127.0.0.1:<port>`. */
  async start(): Promise<string> {
    this.server.addService(IdentityService, { ...this.implementation(), ...this.options.rpcs });
    this.server.addService(AccountService, this.accountImplementation());
    this.port = await this.server.listen('127.0.0.1', 0);
    return `127.0.0.1:${this.port}`;
  }

  /**
   * Of AccountService only what the token endpoint asks: whether a session is still live (an
   * open browser session not ended through EndSession). The other RPCs are "not implemented".
   */
  private accountImplementation(): ServiceImplementation<typeof AccountService> {
    const notImplemented = async (): Promise<never> => {
      throw new InternalError({ detail: 'not implemented by the test double' });
    };
    return {
      listSessions: notImplemented,
      getUserSession: async ({ userId, sessionId }) => {
        const session = [...this.browserSessions.values()].find(
          (open) => open.sessionId === sessionId && open.userId === userId,
        );
        const ended = this.endedSessions.some((end) => end.sessionId === sessionId);
        if (!session || ended) throw new NotFoundError({ detail: 'no such live session' });
        return { session: { id: sessionId, createdAt: BigInt(session.authTime * 1000), lastSeenAt: 0n } };
      },
      touchSession: async () => ({}),
      updateProfile: notImplemented,
      beginAccountDeletion: notImplemented,
      completeAccountDeletion: notImplemented,
      listPendingDeletions: notImplemented,
    } as ServiceImplementation<typeof AccountService>;
  }

  close(): Promise<void> {
    return this.server.close(100);
  }

  private implementation(): IdentityImplementation {
    const notHere = async (): Promise<never> => {
      throw new InternalError({ detail: 'not implemented by the test double' });
    };
    return {
      register: notHere,
      verifyEmail: notHere,
      resendVerification: notHere,
      ensureDeveloper: notHere,
      signInWithWallet: notHere,
      linkWalletCredential: notHere,
      completeSecondFactor: notHere,
      stepUpSession: notHere,
      checkCredentials: async ({ email, password, browserSession, origin }) => {
        this.signIns.push({ email, browserSession, origin });
        if (this.rateLimited.has(email)) throw new RateLimitedError();
        if (email === '' || password === '') {
          throw new ValidationError([{ path: email === '' ? 'email' : 'password', message: 'is required' }]);
        }
        const user = [...this.users.values()].find((candidate) => candidate.email === email);
        if (!user || user.password !== password) throw new InvalidCredentialsError();
        const session = this.openBrowserSession(user);
        return {
          user: wireUser(user),
          sessionId: session.sessionId,
          authTime: BigInt(session.authTime),
          ...(browserSession ? { sessionToken: session.token } : {}),
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
    };
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
