import { OutboundFetchError } from './outbound-fetch-error.js';
import type { OutboundPolicy } from './outbound-policy.js';

/** The hosts CIMD_ALLOW_INSECURE_LOOPBACK lets a test reach over plain http, as URL.hostname spells them. */
const INSECURE_LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The URL rules, checked before any network activity; returns the parsed URL. */
export function checkOutboundUrl(url: string, policy: OutboundPolicy): URL {
  const target = parseAbsoluteUrl(url);
  checkScheme(target, policy);
  // RFC 3986 §3.2.1: userinfo in a URL is deprecated; a public document needs no credentials.
  if (target.username !== '' || target.password !== '') {
    throw new OutboundFetchError('url', 'URL must not carry a username or password');
  }
  // RFC 3986 §3.5: a fragment is never sent, so it cannot be part of a document's identity.
  // `href`, not `hash`: an empty fragment ("…/doc#") leaves `hash` empty.
  if (target.href.includes('#')) {
    throw new OutboundFetchError('url', 'URL must not carry a fragment');
  }
  return target;
}

function parseAbsoluteUrl(url: string): URL {
  try {
    return new URL(url);
  } catch (error) {
    throw new OutboundFetchError('url', 'not an absolute URL', { cause: error });
  }
}

function checkScheme(target: URL, policy: OutboundPolicy): void {
  if (target.protocol === 'https:') return;
  const insecureLoopback =
    target.protocol === 'http:' &&
    policy.allowInsecureLoopback &&
    INSECURE_LOOPBACK_HOSTS.has(target.hostname);
  if (!insecureLoopback) throw new OutboundFetchError('url', 'URL scheme must be https');
}
