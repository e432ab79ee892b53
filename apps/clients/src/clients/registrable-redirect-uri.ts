// RFC 9700 section 4.1.1 and OAuth 2.1 section 2.3.1: registered redirect URIs are absolute,
// carry no fragment, and use https unless they point at the loopback interface (RFC 8252 7.3).
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export const REDIRECT_URI_MESSAGE =
  'must be an absolute https URL, or http on 127.0.0.1, [::1] or localhost, without a fragment';

export function isAcceptableRedirectUri(value: string): boolean {
  if (value.length > 2048 || /\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (value.includes('#') || url.username || url.password) return false;
  if (url.protocol === 'https:') return url.hostname !== '';
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}
