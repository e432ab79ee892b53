import type {
  BasicCredentials as WireBasic,
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
      return { tokens: await handleTokenRequest(deps, postedFromWire(request)) };
    },
    async logout({ accessToken, origin }) {
      await logout(deps, accessToken, fromWire(origin));
      return {};
    },
    async verifyAccessToken({ accessToken, requireFirstPartyUser }) {
      const claims = await verifyAccessToken(deps, accessToken, { requireFirstPartyUser });
      return { ...claims, exp: BigInt(claims.exp) };
    },
    async introspect(request) {
      return introspectionToWire(await introspect(deps, postedFromWire(request)));
    },
    async revoke(request) {
      await revoke(deps, postedFromWire(request));
      return {};
    },
    async userInfo({ accessToken }) {
      return userInfo(deps, accessToken);
    },
  };
}

interface PostedMessage {
  parameters: Parameter[];
  basic?: WireBasic;
  origin?: WireOrigin;
}

/** A form posted to the token, introspection or revocation endpoint, as the gateway sent it. */
function postedFromWire({ parameters, basic, origin }: PostedMessage): TokenRequest {
  return {
    parameters: parameters.map(({ name, value }) => ({ name, value })),
    ...(basic ? { basic: { clientId: basic.clientId, clientSecret: basic.clientSecret } } : {}),
    origin: fromWire(origin),
  };
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
