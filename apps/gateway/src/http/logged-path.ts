/**
 * Path segments that are bearer values: a presentation request handle lets whoever holds it
 * fetch the request object (interface.md 4.9), so it is replaced before the path is logged
 * (docs/wallet.md #17, docs/conventions.md #10).
 */
const SECRET_SEGMENTS: readonly RegExp[] = [/^(\/oid4vp\/request\/)[^/]+/];

/** The request URL as a log line may show it: no query string, no secret path segment. */
export function loggedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return SECRET_SEGMENTS.reduce((redacted, pattern) => redacted.replace(pattern, '$1{handle}'), path);
}
