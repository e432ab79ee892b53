import CachePolicy from 'http-cache-semantics';
import type { FetchedDocument } from './fetch-public-document.js';

/**
 * How long a fetched document may be reused (RFC 9111 §4.2), as a shared cache sees it: `private`
 * and `no-store` responses are not stored, `no-cache` needs revalidation on every use, s-maxage
 * wins over max-age (§5.2.2.10). Heuristic freshness (§4.2.2) is off, so a document that states
 * no lifetime is refetched after minSeconds. The bounds keep a hostile or careless origin from
 * pinning a document forever or forcing a fetch on every request.
 */
export function cacheLifetimeSeconds(
  document: FetchedDocument,
  bounds: { minSeconds: number; maxSeconds: number },
): number {
  const policy = new CachePolicy(
    { method: 'GET', headers: { accept: 'application/json' } },
    { status: document.status, headers: document.headers },
    { shared: true, cacheHeuristic: 0, immutableMinTimeToLive: 0 },
  );
  // §4.2.3: freshness left is the lifetime less the current age (the Age header, §5.1).
  const remaining = Math.round(policy.maxAge() - policy.age());
  return Math.min(bounds.maxSeconds, Math.max(bounds.minSeconds, remaining));
}
