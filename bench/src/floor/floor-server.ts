import { createHash, generateKeyPairSync, randomUUID, sign, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { loadFloorEnv } from '../config/env.js';

/**
 * Child process entry: the least a client_credentials token endpoint can do on this machine,
 * as the floor under any implementation (docs/performance.md "The floor server"). Bare
 * node:http, one client, the request the suite is measured on, the suite's claims
 * (docs/tokens.md #2, #3), an Ed25519 signature on the event loop, nothing stored, no framework.
 */
const env = loadFloorEnv();
const issuer = `http://127.0.0.1:${env.FLOOR_PORT}`;
const SCOPE = 'profile';
const TTL_SECONDS = 900;
const KID = 'bench-floor-ed25519';
const { privateKey } = generateKeyPairSync('ed25519');
const header = encode({ alg: 'EdDSA', typ: 'at+jwt', kid: KID });
// Hashed once, so every check compares two 32-byte digests whatever the presented length.
const secretDigest = sha256(env.FLOOR_CLIENT_SECRET);

const server = createServer((request, response) => {
  if (request.method !== 'POST' || request.url !== '/token')
    return answer(response, 404, { error: 'not_found' });
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => token(request, Buffer.concat(chunks).toString('utf8'), response));
});

function token(request: IncomingMessage, body: string, response: ServerResponse): void {
  if (!authenticated(request.headers.authorization)) {
    response.setHeader('www-authenticate', 'Basic realm="floor"');
    return answer(response, 401, { error: 'invalid_client' });
  }
  const form = new URLSearchParams(body);
  if (form.get('grant_type') !== 'client_credentials')
    return answer(response, 400, { error: 'unsupported_grant_type' });
  const scope = form.get('scope') ?? SCOPE;
  if (scope !== SCOPE) return answer(response, 400, { error: 'invalid_scope' });
  const iat = Math.floor(Date.now() / 1000);
  const payload = encode({
    iss: issuer,
    sub: env.FLOOR_CLIENT_ID,
    aud: env.FLOOR_CLIENT_ID,
    client_id: env.FLOOR_CLIENT_ID,
    iat,
    exp: iat + TTL_SECONDS,
    jti: randomUUID(),
    scope,
  });
  const input = `${header}.${payload}`;
  const jwt = `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
  answer(response, 200, { access_token: jwt, token_type: 'Bearer', expires_in: TTL_SECONDS, scope });
}

/** RFC 6749 section 2.3.1: Basic with form-encoded id and secret; the secret in constant time. */
function authenticated(authorization: string | undefined): boolean {
  if (!authorization?.startsWith('Basic ')) return false;
  const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
  try {
    const clientId = formDecode(decoded.slice(0, colon));
    const presented = sha256(formDecode(decoded.slice(colon + 1)));
    return timingSafeEqual(presented, secretDigest) && clientId === env.FLOOR_CLIENT_ID;
  } catch {
    return false; // malformed percent-encoding
  }
}

function answer(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function encode(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function stop(): void {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);

server.listen(env.FLOOR_PORT, '127.0.0.1', () => {
  process.stdout.write(`listening on ${issuer}\n`);
});
