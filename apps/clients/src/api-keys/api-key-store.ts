import type { ApiKey } from '../generated/prisma/client.js';

/** An API key to store: only its keyed hash and the masked parts lists show. */
export interface NewApiKey {
  /** The record id of the client. */
  clientId: string;
  name: string;
  prefix: string;
  last4: string;
  keyHash: string;
}

/** Storage of API keys (docs/conventions.md #7). `clientId` is always the client's record id. */
export interface ApiKeyStore {
  create(key: NewApiKey): Promise<ApiKey>;
  /** Every key of the client, revoked ones included, oldest first. */
  listForClient(clientId: string): Promise<ApiKey[]>;
  /**
   * Sets revokedAt once (concurrent calls agree on who did) and keeps the row. Undefined when
   * the client has no such key; `revoked` is true for the call that revoked it.
   */
  revoke(
    clientId: string,
    keyId: string,
    now: Date,
  ): Promise<{ apiKey: ApiKey; revoked: boolean } | undefined>;
  /** The id of the client's unrevoked key with this hash. */
  findLiveId(clientId: string, keyHash: string): Promise<string | undefined>;
  /** Moves lastUsedAt forward only. */
  recordUse(id: string, usedAt: Date): Promise<void>;
}
