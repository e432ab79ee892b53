import type { DiscoveryService, GetServerMetadataResponse } from '@authz/proto/oauth/v1/oauth';
import type { ServiceClient } from '@authz/shared/grpc';

/** The documents change only when oauth is redeployed with new settings. */
const METADATA_CACHE_MS = 60_000;

/**
 * The discovery documents, fetched from oauth at most once a minute: they are configuration,
 * not state, and every client fetches them, so the hot path skips the gRPC hop.
 */
export class ServerMetadataCache {
  private cached: { response: GetServerMetadataResponse; expiresAt: number } | undefined;
  private pending: Promise<GetServerMetadataResponse> | undefined;

  constructor(private readonly discovery: ServiceClient<typeof DiscoveryService>) {}

  async get(now = Date.now()): Promise<GetServerMetadataResponse> {
    if (this.cached && this.cached.expiresAt > now) return this.cached.response;
    this.pending ??= this.discovery
      .getServerMetadata({})
      .then((response) => {
        this.cached = { response, expiresAt: Date.now() + METADATA_CACHE_MS };
        return response;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }
}
