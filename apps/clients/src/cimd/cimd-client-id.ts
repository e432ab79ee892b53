const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A client_id that asks for CIMD resolution: an http(s) URL rather than a registered id. */
export function looksLikeMetadataDocumentUrl(clientId: string): boolean {
  return clientId.startsWith('https://') || clientId.startsWith('http://');
}

/**
 * draft-ietf-oauth-client-id-metadata-document section 3: the client_id URL uses https, has a
 * path, no dot segments, no fragment and no credentials. We also refuse a query (the draft
 * says SHOULD NOT) and any URL not already in its canonical form (`new URL(x).href === x`),
 * so one document has exactly one client_id. Test-only: loopback http URLs.
 */
export function isValidMetadataDocumentUrl(clientId: string, allowInsecureLoopback: boolean): boolean {
  if (clientId.length > 2048) return false;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  if (url.href !== clientId || url.username || url.password || url.search || url.hash) return false;
  if (url.pathname === '/' || clientId.includes('#')) return false;
  if (url.protocol === 'https:') return true;
  return allowInsecureLoopback && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}
