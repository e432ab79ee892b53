/**
 * Handles of pending authorizations and consent prompts are opaque to consent-ui; only
 * URL-safe ones (RFC 3986 section 2.3 unreserved characters) of a sane length are passed on,
 * so nothing else reaches oauth or a Location header (docs/hosted-pages.md #6).
 */
const HANDLE_PATTERN = /^[A-Za-z0-9._~-]{1,256}$/;

export function isHandleShaped(value: string | undefined): value is string {
  return value !== undefined && HANDLE_PATTERN.test(value);
}
