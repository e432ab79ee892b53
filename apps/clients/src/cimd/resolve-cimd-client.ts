import { createHash } from 'node:crypto';
import type { Logger } from '@authz/shared/logger';
import {
  cacheLifetimeSeconds,
  fetchPublicDocument,
  OutboundFetchError,
  type OutboundPolicy,
} from '@authz/shared/outbound';
import type { Redis } from 'ioredis';
import type { AuthenticatableClient } from '../authentication/authenticatable-client.js';
import { isValidMetadataDocumentUrl, looksLikeMetadataDocumentUrl } from './cimd-client-id.js';
import { clientFromMetadataDocument, MetadataDocumentError } from './metadata-document.js';

/** Resolves URL client_ids to clients (CIMD_ENABLED). */
export interface CimdResolver {
  /** Whether `clientId` is a URL this resolver answers for. */
  handles(clientId: string): boolean;
  /** The client the document describes; MetadataDocumentError when it describes none. */
  resolve(clientId: string): Promise<AuthenticatableClient>;
}

/** The draft recommends a small limit; real documents are well under 5 KB. */
export const DOCUMENT_MAX_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
/** Bounds on how long a document is trusted, whatever its Cache-Control says. */
const CACHE_MIN_SECONDS = 60;
const CACHE_MAX_SECONDS = 24 * 60 * 60;
/** A failure is remembered this long, so a bad URL cannot make us fetch on every request. */
const NEGATIVE_CACHE_SECONDS = 30;

type Cached = { client: AuthenticatableClient } | { failure: string };

export interface CimdResolverDeps {
  redis: Redis;
  log: Logger;
  dynamicRegistrationScopes: readonly string[];
  allowInsecureLoopback: boolean;
}

/**
 * draft-ietf-oauth-client-id-metadata-document: fetch the document through the SSRF-safe
 * outbound fetcher (public addresses only, no redirects, size and time bounded), validate
 * it, and cache the outcome in Redis for every replica (`cimd:<sha256 of the URL>`): a client
 * for its HTTP cache lifetime within bounds, a failure briefly. Concurrent resolutions of one
 * URL in this process share one fetch.
 */
export function createCimdResolver(deps: CimdResolverDeps): CimdResolver {
  const policy: OutboundPolicy = {
    maxBytes: DOCUMENT_MAX_BYTES,
    timeoutMs: FETCH_TIMEOUT_MS,
    allowInsecureLoopback: deps.allowInsecureLoopback,
  };
  const inFlight = new Map<string, Promise<Cached>>();

  async function lookUp(url: string): Promise<Cached> {
    const key = `cimd:${createHash('sha256').update(url).digest('hex')}`;
    const cached = await readCache(deps, key);
    if (cached) return cached;
    const { outcome, ttlSeconds } = await fetchAndValidate(url);
    await writeCache(deps, key, outcome, ttlSeconds);
    return outcome;
  }

  async function fetchAndValidate(url: string): Promise<{ outcome: Cached; ttlSeconds: number }> {
    try {
      const document = await fetchPublicDocument(url, policy);
      const client = clientFromMetadataDocument(url, document.body, deps);
      const ttlSeconds = cacheLifetimeSeconds(document, {
        minSeconds: CACHE_MIN_SECONDS,
        maxSeconds: CACHE_MAX_SECONDS,
      });
      return { outcome: { client }, ttlSeconds };
    } catch (error) {
      const failure = describeFailure(error);
      deps.log.info({ clientId: url, reason: failure.reason }, 'client metadata document refused');
      return { outcome: { failure: failure.description }, ttlSeconds: NEGATIVE_CACHE_SECONDS };
    }
  }

  return {
    handles: looksLikeMetadataDocumentUrl,
    async resolve(clientId) {
      if (!isValidMetadataDocumentUrl(clientId, deps.allowInsecureLoopback)) {
        throw new MetadataDocumentError('The client_id is not a valid client metadata document URL');
      }
      let pending = inFlight.get(clientId);
      if (!pending) {
        pending = lookUp(clientId).finally(() => inFlight.delete(clientId));
        inFlight.set(clientId, pending);
      }
      const outcome = await pending;
      if ('failure' in outcome) throw new MetadataDocumentError(outcome.failure);
      return outcome.client;
    },
  };
}

// A Redis failure only costs a fetch: the cache is an optimisation, never the source of truth.
async function readCache(deps: CimdResolverDeps, key: string): Promise<Cached | undefined> {
  try {
    const text = await deps.redis.get(key);
    return text === null ? undefined : (JSON.parse(text) as Cached);
  } catch (error) {
    deps.log.warn({ err: error }, 'client metadata cache unreadable');
    return undefined;
  }
}

async function writeCache(deps: CimdResolverDeps, key: string, outcome: Cached, ttlSeconds: number) {
  try {
    await deps.redis.set(key, JSON.stringify(outcome), 'EX', ttlSeconds);
  } catch (error) {
    deps.log.warn({ err: error }, 'client metadata cache not written');
  }
}

// What the client's developer may learn: document problems in full; for fetch failures only
// that the document could not be retrieved (why, e.g. a private address, stays in our logs).
function describeFailure(error: unknown): { reason: string; description: string } {
  if (error instanceof MetadataDocumentError) return { reason: 'document', description: error.description };
  if (!(error instanceof OutboundFetchError)) throw error;
  if (error.reason === 'too_large') {
    return {
      reason: error.reason,
      description: `The client metadata document exceeds ${DOCUMENT_MAX_BYTES} bytes`,
    };
  }
  if (error.reason === 'content_type') {
    return {
      reason: error.reason,
      description: 'The client metadata document must be served as application/json',
    };
  }
  return { reason: error.reason, description: 'The client metadata document could not be retrieved' };
}
