// A web application signing a user in: authorization code + PKCE with openid-client
// (docs/getting-started.md). Usage: ISSUER=... CLIENT_ID=... CLIENT_SECRET=... node examples/sign-in.mjs
import { createServer } from 'node:http';
import * as oidc from 'openid-client';

const issuer = new URL(process.env.ISSUER ?? 'http://localhost:3000');
const port = Number(process.env.PORT ?? 8400);
const redirectUri = `http://127.0.0.1:${port}/callback`;
// ID tokens are signed with EdDSA; a local issuer is plain http, which openid-client refuses by default.
const insecure = issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined;
const config = await oidc.discovery(
  issuer,
  process.env.CLIENT_ID,
  { id_token_signed_response_alg: 'EdDSA' },
  oidc.ClientSecretBasic(process.env.CLIENT_SECRET),
  insecure,
);

const verifier = oidc.randomPKCECodeVerifier();
const [state, nonce] = [oidc.randomState(), oidc.randomNonce()];
const url = oidc.buildAuthorizationUrl(config, {
  redirect_uri: redirectUri,
  scope: 'openid email',
  state,
  nonce,
  code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
  code_challenge_method: 'S256',
});
console.log(`Open this address in a browser and sign in:\n\n  ${url.href}\n`);

const server = createServer(async (request, response) => {
  const current = new URL(request.url ?? '/', redirectUri);
  if (current.pathname !== '/callback') return void response.writeHead(404).end();
  try {
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    const claims = tokens.claims();
    response
      .writeHead(200, { 'content-type': 'text/plain' })
      .end(`Signed in as ${claims.email}. You can close this tab.\n`);
    console.log(`Signed in. ID token claims:\n${JSON.stringify(claims, null, 2)}`);
  } catch (error) {
    response.writeHead(400, { 'content-type': 'text/plain' }).end('Sign-in failed; see the terminal.\n');
    console.error(`Sign-in failed: ${error.message}`);
    process.exitCode = 1;
  }
  server.close();
});
server.listen(port, '127.0.0.1');
