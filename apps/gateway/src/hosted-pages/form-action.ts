import type { FastifyReply } from 'fastify';

/**
 * CSP Level 3 form-action governs every redirect that follows a form submission, not only the
 * form's own target: the consent decision (and a sign-in that resumes straight to the client)
 * ends in a redirect to the client's redirect URI, which `form-action 'self'` would block.
 * A page names the origins its forms may end at; they join the directive of its response only.
 */
export function allowFormActionOrigins(reply: FastifyReply, origins: readonly string[]): void {
  const policy = reply.getHeader('content-security-policy');
  const sources = origins.filter(isSerializedOrigin);
  if (typeof policy !== 'string' || sources.length === 0) return;
  // No form-action directive at all means no restriction: nothing to widen then.
  const widened = policy.replace(
    /(^|;\s*)form-action([^;]*)/,
    (_directive, lead: string, list: string) => `${lead}form-action${list} ${sources.join(' ')}`,
  );
  reply.header('content-security-policy', widened);
}

/**
 * Only an http(s) origin exactly as the URL standard serializes it may enter the header, so
 * nothing a page says can add a keyword, a wildcard or another directive to the policy.
 */
function isSerializedOrigin(candidate: string): boolean {
  try {
    const url = new URL(candidate);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === candidate;
  } catch {
    return false;
  }
}

/**
 * docs/strong-authentication.md #20: the pages with passkey ceremonies load two scripts from our
 * origin and fetch the ceremony options from it; only their responses get script-src and
 * connect-src 'self' (no inline script, no other origin). Every other response keeps
 * default-src 'none' with no script at all.
 */
export function allowSameOriginScripts(reply: FastifyReply): void {
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy !== 'string') return;
  reply.header('content-security-policy', `${policy};script-src 'self';connect-src 'self'`);
}
