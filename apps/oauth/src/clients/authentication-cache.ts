import { createHmac, randomBytes } from 'node:crypto';
import type { AuthenticatedClient } from '../protocol/client-authentication/authenticated-client.js';
import type { PresentedClientCredentials } from '../protocol/client-authentication/clients-port.js';

export interface AuthenticationCacheOptions {
  maxEntries?: number;
  ttlMs?: number;
  /** Epoch milliseconds; injectable for tests. */
  now?: () => number;
}

interface Entry {
  client: AuthenticatedClient;
  expiresAt: number;
}

/**
 * Successful client authentications (docs/tokens.md #16), so a returning client costs no call
 * to the clients service. docs/decisions.md #28: entries are dropped by invalidation messages,
 * everything is flushed whenever the subscription starts or ends, and nothing lives longer
 * than a short TTL. While the invalidation channel is not subscribed the cache is bypassed:
 * it answers nothing and keeps nothing.
 */
export class AuthenticationCache {
  private readonly entries = new Map<string, Entry>();
  // Keys are HMACs under a key of this process only: no secret is held in memory in a form
  // that could be matched offline, and keys have one length whatever was presented.
  private readonly hashKey = randomBytes(32);
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private subscribed = false;
  private generation = 0;

  constructor({ maxEntries = 10_000, ttlMs = 30_000, now = Date.now }: AuthenticationCacheOptions = {}) {
    this.maxEntries = maxEntries;
    this.ttlMs = ttlMs;
    this.now = now;
  }

  get active(): boolean {
    return this.subscribed;
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
  async authenticate(
    credentials: PresentedClientCredentials,
    authenticate: () => Promise<AuthenticatedClient>,
  ): Promise<AuthenticatedClient> {
    if (!this.subscribed || carriesAssertion(credentials)) return authenticate();
    const key = this.keyOf(credentials);
    const cached = this.lookup(key);
    if (cached) return cached;
    const generation = this.generation;
    const client = await authenticate();
    if (this.subscribed && generation === this.generation) this.store(key, client);
    return client;
  }

  /** An invalidation message named this client (docs/clients.md #8). */
  dropClient(clientId: string): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (entry.client.clientId === clientId) this.entries.delete(key);
  }

  /** Subscribed (again): whatever was missed meanwhile is unknown, so start empty. */
  activate(): void {
    this.flush();
    this.subscribed = true;
  }

  /** Not subscribed: messages may be missed from now on. */
  deactivate(): void {
    this.subscribed = false;
    this.flush();
  }

  /** Drops every entry, and any answer still in flight. */
  flush(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private lookup(key: string): AuthenticatedClient | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) this.entries.delete(key);
    else if (entry) return entry.client;
    return undefined;
  }

  private store(key: string, client: AuthenticatedClient): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { client, expiresAt: this.now() + this.ttlMs });
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
