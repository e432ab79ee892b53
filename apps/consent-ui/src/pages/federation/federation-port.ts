import type { RequestOrigin } from '../sign-in/identity-port.js';

export interface UpstreamProviderView {
  id: string;
  displayName: string;
}

export interface StartedUpstreamFlow {
  authorizationUrl: string;
  binder: string;
  expiresAt: number;
}

export type CompletedUpstreamFlow =
  | { outcome: 'signed_in'; sessionToken: string; pendingHandle?: string }
  | { outcome: 'linked' }
  | { outcome: 'conflict' };

export interface LinkedUpstreamIdentity {
  id: string;
  providerId: string;
  displayName: string;
  createdAt: number;
}

/** What the upstream sign-in pages need of identity (interface.md 4.14, docs/federation.md). */
export interface FederationPort {
  listProviders(): Promise<UpstreamProviderView[]>;
  /** NotFoundError for an unknown provider (or a link for an unknown user). */
  start(
    request: { providerId: string } & ({ pendingHandle?: string } | { linkUserId: string }),
  ): Promise<StartedUpstreamFlow>;
  /** NotFoundError is the uniform refusal, whatever failed. */
  complete(request: {
    binder: string;
    callbackQuery: string;
    origin: RequestOrigin;
  }): Promise<CompletedUpstreamFlow>;
  listLinked(userId: string): Promise<{ identities: LinkedUpstreamIdentity[]; signInMethods: number }>;
  /** ConflictError for the last sign-in method, NotFoundError for an unknown id. */
  unlink(request: { userId: string; identityId: string; origin: RequestOrigin }): Promise<void>;
}
