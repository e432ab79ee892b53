import type {
  BasicCredentials as WireBasic,
  DpopProof as WireDpopProof,
  IntrospectResponseSchema,
  Parameter,
  RequestOrigin as WireOrigin,
  TokenService,
} from '@authz/proto/oauth/v1/oauth';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ServiceImplementation } from '@authz/shared/grpc';
import type { RequestOrigin } from '../protocol/identity-port.js';
import type { Introspection } from '../protocol/introspection/introspection-result.js';
import { introspect } from '../protocol/introspection/introspection.js';
import { completeFirstPartyLogin, loginFirstParty } from '../protocol/first-party/login-first-party.js';
import { logout } from '../protocol/first-party/logout.js';
import type { Registry } from '../registry.js';
import { revoke } from '../protocol/revocation/revocation.js';
import { handleTokenRequest } from '../protocol/token/token-endpoint.js';
import { userInfo } from '../protocol/userinfo/userinfo.js';
import type { TokenRequest } from '../protocol/token/token-request.js';
import { verifyAccessToken } from '../protocol/access-token/verify-access-token.js';
import { announcedNonce } from '../protocol/dpop/check-token-request-proof.js';
import type { PresentedDpopProof } from '../protocol/dpop/dpop-binding.js';

/** TokenService: thin translations between the wire messages and the protocol logic. */
export function tokenServiceImplementation(deps: Registry): ServiceImplementation<typeof TokenService> {
  return {
    async loginFirstParty({ email, password, origin }) {
      return loginFirstParty(deps, { email, password, origin: fromWire(origin) });
    },
    async completeFirstPartyLogin({ mfaToken, code, origin }) {
      return { tokens: await completeFirstPartyLogin(deps, { mfaToken, code, origin: fromWire(origin) }) };
    },
    async token(request) {
      const posted = postedFromWire(request);
      const tokens = await handleTokenRequest(deps, posted);
      const dpopNonce = announcedNonce(deps, posted.dpop);
      return { tokens, ...(dpopNonce ? { dpopNonce } : {}) };
    },
    async logout({ accessToken, origin, dpop }) {
      await logout(deps, accessToken, fromWire(origin), dpopFromWire(dpop));
      return {};
    },
    async verifyAccessToken({ accessToken, requireFirstPartyUser, dpop }) {
      const proof = dpopFromWire(dpop);
      const claims = await verifyAccessToken(deps, accessToken, {
        requireFirstPartyUser,
        ...(proof ? { dpop: proof } : {}),
      });
      return { ...claims, exp: BigInt(claims.exp) };
    },
    async introspect(request) {
      return introspectionToWire(await introspect(deps, postedFromWire(request)));
    },
    async revoke(request) {
      await revoke(deps, postedFromWire(request));
      return {};
    },
    async userInfo({ accessToken, dpop }) {
      return userInfo(deps, accessToken, dpopFromWire(dpop));
    },
  };
}

interface PostedMessage {
  parameters: Parameter[];
  basic?: WireBasic;
  origin?: WireOrigin;
  dpop?: WireDpopProof;
}

/** A form posted to the token, PAR, introspection or revocation endpoint, as the gateway sent it. */
export function postedFromWire({ parameters, basic, origin, dpop }: PostedMessage): TokenRequest {
  const proof = dpopFromWire(dpop);
  return {
    parameters: parameters.map(({ name, value }) => ({ name, value })),
    ...(basic ? { basic: { clientId: basic.clientId, clientSecret: basic.clientSecret } } : {}),
    origin: fromWire(origin),
    ...(proof ? { dpop: proof } : {}),
  };
}

function dpopFromWire(dpop: WireDpopProof | undefined): PresentedDpopProof | undefined {
  return dpop ? { proof: dpop.proof, method: dpop.method, path: dpop.path } : undefined;
}

function introspectionToWire(result: Introspection): MessageInitShape<typeof IntrospectResponseSchema> {
  if (!result.active) return { active: false };
  const { aud, exp, iat, authTime, ...token } = result.token;
  return {
    active: true,
    token: {
      ...token,
      aud: Array.isArray(aud)
        ? { case: 'audiences', value: { values: aud } }
        : { case: 'audience', value: aud },
      exp: BigInt(exp),
      iat: BigInt(iat),
      ...(authTime === undefined ? {} : { authTime: BigInt(authTime) }),
    },
  };
}

function fromWire(origin: WireOrigin | undefined): RequestOrigin {
  return { ip: origin?.ip ?? '', userAgent: origin?.userAgent ?? '' };
}
