import { randomBytes } from 'node:crypto';
import { AuthorizationService } from '@authz/proto/oauth/v1/oauth';
import { InternalError, NotFoundError } from '@authz/shared/errors';
import { GrpcServer } from '@authz/shared/grpc';
import { testLogger } from '@authz/shared/testing';
import type { FakeIdentity } from '@authz/shared/testing/fake-identity';

export const FAKE_ISSUER = 'https://issuer.example';
/** The origin of every fake client's redirect URI. */
export const FAKE_REDIRECT_ORIGIN = 'https://client.example';

type Outcome = { redirectTo: string } | { errorPage: { error: string; errorDescription: string } };

export interface FakePending {
  clientName: string;
  scopes: string[];
  loginRequired?: boolean;
  /** What resuming with a valid session answers (a consent prompt's address by default). */
  outcome?: Outcome;
}

export interface FakePrompt {
  /** The session the prompt is bound to (AuthorizationService: another user's is NotFound). */
  sessionToken: string;
  clientName: string;
  scopes: string[];
  newScopes: string[];
  redirectUri: string;
  state?: string;
  /** pre_registered unless set (docs/hosted-pages.md #24). */
  clientSource?: string;
  clientId?: string;
  resources?: string[];
}

export interface RecordedCall {
  rpc: string;
  handle: string;
  sessionToken?: string;
  allow?: boolean;
  origin?: { ip: string; userAgent: string } | undefined;
}

/**
 * A test double of oauth's AuthorizationService (oauth is built elsewhere): pending
 * authorizations and consent prompts the test sets up, single use as the contract says, and
 * every call recorded.
 */
export class FakeAuthorization {
  readonly pending = new Map<string, FakePending>();
  readonly prompts = new Map<string, FakePrompt>();
  readonly calls: RecordedCall[] = [];
  private readonly server = new GrpcServer({ serviceName: 'oauth', logger: testLogger() });

  constructor(private readonly identity: FakeIdentity) {}

  async start(): Promise<string> {
    const notHere = async (): Promise<never> => {
      throw new InternalError({ detail: 'not implemented by the test double' });
    };
    this.server.addService(AuthorizationService, {
      authorize: notHere,
      pushAuthorizationRequest: notHere,
      listConsents: notHere,
      revokeConsent: notHere,
      endSession: notHere,
      getLogoutPrompt: notHere,
      confirmLogout: notHere,
      getPendingAuthorization: async ({ handle }) => {
        this.calls.push({ rpc: 'getPendingAuthorization', handle });
        const pending = this.pending.get(handle);
        if (!pending) throw new NotFoundError();
        return {
          clientId: 'client-1',
          clientName: pending.clientName,
          scopes: pending.scopes,
          loginRequired: pending.loginRequired ?? false,
          redirectOrigin: FAKE_REDIRECT_ORIGIN,
        };
      },
      resumeAuthorization: async ({ handle, sessionToken, origin }) => {
        this.calls.push({
          rpc: 'resumeAuthorization',
          handle,
          ...(sessionToken ? { sessionToken } : {}),
          origin,
        });
        const pending = this.pending.get(handle);
        if (!pending) throw new NotFoundError();
        if (!sessionToken || !this.identity.browserSessions.has(sessionToken)) {
          // Spec flow: no valid session, back to sign-in; the handle is not consumed.
          return { outcome: wireOutcome({ redirectTo: `${FAKE_ISSUER}/ui/login?handle=${handle}` }) };
        }
        this.pending.delete(handle);
        return {
          outcome: wireOutcome(
            pending.outcome ?? { redirectTo: `${FAKE_ISSUER}/ui/consent?handle=c-${handle}` },
          ),
        };
      },
      getConsentPrompt: async ({ handle, sessionToken }) => {
        this.calls.push({ rpc: 'getConsentPrompt', handle, sessionToken });
        const prompt = this.promptOf(handle, sessionToken);
        return {
          clientId: prompt.clientId ?? 'client-1',
          clientName: prompt.clientName,
          scopes: prompt.scopes,
          newScopes: prompt.newScopes,
          redirectOrigin: new URL(prompt.redirectUri).origin,
          clientSource: prompt.clientSource ?? 'pre_registered',
          resources: prompt.resources ?? [],
        };
      },
      decideConsent: async ({ handle, sessionToken, allow, origin }) => {
        this.calls.push({ rpc: 'decideConsent', handle, sessionToken, allow, origin });
        const prompt = this.promptOf(handle, sessionToken);
        this.prompts.delete(handle);
        const target = new URL(prompt.redirectUri);
        if (allow) target.searchParams.set('code', randomBytes(16).toString('hex'));
        else target.searchParams.set('error', 'access_denied');
        if (prompt.state !== undefined) target.searchParams.set('state', prompt.state);
        target.searchParams.set('iss', FAKE_ISSUER);
        return { outcome: wireOutcome({ redirectTo: target.href }) };
      },
    });
    return `127.0.0.1:${await this.server.listen('127.0.0.1', 0)}`;
  }

  close(): Promise<void> {
    return this.server.close(100);
  }

  private promptOf(handle: string, sessionToken: string): FakePrompt {
    const prompt = this.prompts.get(handle);
    if (!prompt || prompt.sessionToken !== sessionToken) throw new NotFoundError();
    return prompt;
  }
}

function wireOutcome(outcome: Outcome) {
  return 'redirectTo' in outcome
    ? { next: { case: 'redirectTo' as const, value: outcome.redirectTo } }
    : { next: { case: 'errorPage' as const, value: outcome.errorPage } };
}
