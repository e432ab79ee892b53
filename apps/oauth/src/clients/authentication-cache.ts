import { createHmac, randomBytes } from 'node:crypto';
import { InvalidatedEntries, type InvalidatedEntriesOptions } from '@authz/shared/invalidation';
import type { AuthenticatedClient } from '../protocol/client-authentication/authenticated-client.js';
import type { PresentedClientCredentials } from '../protocol/client-authentication/clients-port.js';

export type AuthenticationCacheOptions = InvalidatedEntriesOptions;

/**
 * Successful client authentications (docs/tokens.md #16), so a returning client costs no call
 * to the clients service. docs/decisions.md #28: entries are dropped by invalidation messages,
 * everything is flushed whenever the subscription starts or ends, and nothing lives longer
 * than a short TTL. While the invalidation channel is not subscribed the cache is bypassed:
 * it answers nothing and keeps nothing.
 */
export class AuthenticationCache {
  private readonly entries: InvalidatedEntries<AuthenticatedClient>;
  // Keys are HMACs under a key of this process only: no secret is held in memory in a form
  // that could be matched offline, and keys have one length whatever was presented.
  private readonly hashKey = randomBytes(32);

  constructor(options: AuthenticationCacheOptions = {}) {
    this.entries = new InvalidatedEntries(options);
  }

  get active(): boolean {
    return this.entries.active;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The cached answer for these credentials, else `authenticate()`'s, kept when it succeeds.
   * Failures are never kept, nor answers to a private_key_jwt assertion: each assertion is
   * single use (RFC 7523 section 3). An answer that was in flight while anything was
   * invalidated is not kept either: it may predate the change.
   */
  authenticate(
    credentials: PresentedClientCredentials,
    authenticate: () => Promise<AuthenticatedClient>,
  ): Promise<AuthenticatedClient> {
    if (!this.entries.active || carriesAssertion(credentials)) return authenticate();
    return this.entries.find(this.keyOf(credentials), authenticate);
  }

  /** An invalidation message named this client (docs/clients.md #8). */
  dropClient(clientId: string): void {
    this.entries.dropWhere((client) => client.clientId === clientId);
  }

  /** Subscribed (again): whatever was missed meanwhile is unknown, so start empty. */
  activate(): void {
    this.entries.activate();
  }

  /** Not subscribed: messages may be missed from now on. */
  deactivate(): void {
    this.entries.deactivate();
  }

  /** Drops every entry, and any answer still in flight. */
  flush(): void {
    this.entries.flush();
  }

  // Everything presented takes part, so credentials the clients service could judge
  // differently never share an entry.
  private keyOf(credentials: PresentedClientCredentials): string {
    const canonical = JSON.stringify([
      credentials.bodyClientId ?? null,
      credentials.bodyClientSecret ?? null,
      credentials.basic?.clientId ?? null,
      credentials.basic?.clientSecret ?? null,
      credentials.grantType,
      credentials.sharedSecretOnly,
    ]);
    return createHmac('sha256', this.hashKey).update(canonical).digest('base64url');
  }
}

function carriesAssertion(credentials: PresentedClientCredentials): boolean {
  return credentials.clientAssertion !== undefined || credentials.clientAssertionType !== undefined;
}
