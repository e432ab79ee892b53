import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Security headers for JSON and the hosted pages alike: a strict CSP (pages use no inline
 * script; forms post to the same origin), no framing (clickjacking, RFC 9700 section 4.16),
 * no referrer leaking codes or handles. HSTS is not among them: it depends on the transport
 * (setTransportSecurity).
 */
export const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginResourcePolicy: { policy: 'same-site' },
  strictTransportSecurity: false,
};

/** A year, subdomains included: the gateway's origin is meant to be https-only. */
export const HSTS_HEADER = ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'] as const;

/**
 * RFC 6797 section 7.2: an HSTS host must not send the header over a non-secure transport,
 * so it goes out only when the request came over https — directly, or as the trusted proxy
 * says in X-Forwarded-Proto (TRUST_PROXY; request.protocol honours it).
 */
export function setTransportSecurity(request: FastifyRequest, reply: FastifyReply): void {
  if (request.protocol === 'https') reply.raw.setHeader(...HSTS_HEADER);
}

/**
 * The headers @fastify/helmet sets for these options: names as it spells them, values and
 * order as it writes them. They do not depend on the request, yet the plugin rebuilds helmet
 * on every request, so they are taken once at start-up from a throwaway instance
 * (docs/performance.md #4).
 */
export async function securityHeaders(
  options: FastifyHelmetOptions = HELMET_OPTIONS,
): Promise<[string, string][]> {
  const probe = Fastify();
  const set: [string, string][] = [];
  let headers: [string, string][] = [];
  try {
    // Runs before helmet's hooks: records each header set on the raw response from then on.
    probe.addHook('onRequest', (_request, reply, done) => {
      const raw = reply.raw;
      const setHeader = raw.setHeader.bind(raw);
      raw.setHeader = ((name: string, value: string) => {
        set.push([name, String(value)]);
        return setHeader(name, value);
      }) as typeof raw.setHeader;
      done();
    });
    await probe.register(helmet, options);
    // By the handler, helmet's hooks have run and the response itself has not started.
    probe.get('/', async () => {
      headers = [...set];
      return '';
    });
    await probe.inject({ method: 'GET', url: '/' });
  } finally {
    await probe.close();
  }
  if (headers.length === 0) throw new Error('helmet set no security headers');
  return headers;
}

/**
 * Sets them on every response, on the raw response as helmet does, so a route's own value
 * (CORS routes' cross-origin-resource-policy) still wins. Responses default to
 * Cache-Control: no-store; cacheable routes (discovery) say otherwise.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const headers = await securityHeaders();
    app.addHook('onRequest', (request, reply, done) => {
      const raw = reply.raw;
      for (const [name, value] of headers) raw.setHeader(name, value);
      setTransportSecurity(request, reply);
      done();
    });
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      done(null, payload);
    });
  },
  { name: 'security-headers' },
);
