import type { Client } from '../generated/prisma/client.js';
import type { KeysetPosition } from '@authz/shared/pagination';
import type { ClientConfig } from './client-config.js';

/** A client to store: its validated configuration and the attributes set once at creation. */
export interface NewClient {
  config: ClientConfig;
  clientId: string;
  /** Keyed hash of the secret; null for a public client. */
  secretHash: string | null;
  /** Null for a dynamically registered client, which no developer owns. */
  developerId: string | null;
  /** Null for the default realm (docs/decisions.md #1). */
  realmId: string | null;
  /** pre_registered when absent. */
  source?: 'pre_registered' | 'dynamic';
  isAgent?: boolean;
  agentScopeModes?: string[];
}

/** Storage of OAuth clients (docs/conventions.md #7). Ids are lower-case UUIDs. */
export interface ClientStore {
  create(client: NewClient): Promise<Client>;
  /** The client of `developerId` whose record id or OAuth client id is `id`. */
  findOwned(developerId: string, id: string): Promise<Client | undefined>;
  /** The developer's clients, oldest first. */
  listOwned(developerId: string): Promise<Client[]>;
  findByClientId(clientId: string): Promise<Client | undefined>;
  /** Writes the parts given; `secretHash: null` drops the secret. */
  update(id: string, changes: { config?: ClientConfig; secretHash?: string | null }): Promise<Client>;
  /** Removes the client and its API keys; false when it was already gone. */
  delete(id: string): Promise<boolean>;
  /** Moves lastUsedAt forward only: a late report never overwrites a newer use. */
  recordUse(id: string, usedAt: Date): Promise<void>;
  /**
   * Sets the environment of the client whose record id or OAuth client id is `id`; with
   * `revokeApiKeysAt`, its live API keys are revoked in the same transaction. Undefined when
   * there is no such client.
   */
  setEnvironment(
    id: string,
    environment: string,
    revokeApiKeysAt: Date | null,
  ): Promise<{ clientId: string; revokedKeys: number } | undefined>;
  /** Any developer's client by record id or OAuth client id (the operator API). */
  findAny(id: string): Promise<Client | undefined>;
  /**
   * Every client after `after` by (created_at, id), at most `limit`; only `developerId`'s when
   * given (docs/admin-api.md #6).
   */
  listAll(filter: { developerId?: string; after?: KeysetPosition; limit: number }): Promise<Client[]>;
}
