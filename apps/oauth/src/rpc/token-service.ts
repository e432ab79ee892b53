import type { RequestOrigin as WireOrigin, TokenService } from '@authz/proto/oauth/v1/oauth';
import type { ServiceImplementation } from '@authz/shared/grpc';
import type { RequestOrigin } from '../protocol/identity-port.js';
import { loginFirstParty } from '../protocol/login-first-party.js';
import { logout } from '../protocol/logout.js';
import type { Registry } from '../protocol/registry.js';
import { handleTokenRequest } from '../protocol/token-endpoint.js';
import { verifyAccessToken } from '../protocol/verify-access-token.js';

/** TokenService: thin translations between the wire messages and the protocol logic. */
export function tokenServiceImplementation(deps: Registry): ServiceImplementation<typeof TokenService> {
  return {
    async loginFirstParty({ email, password, origin }) {
      return { tokens: await loginFirstParty(deps, { email, password, origin: fromWire(origin) }) };
    },
    async token({ parameters, basic, origin }) {
      const tokens = await handleTokenRequest(deps, {
        parameters: parameters.map(({ name, value }) => ({ name, value })),
        ...(basic ? { basic: { clientId: basic.clientId, clientSecret: basic.clientSecret } } : {}),
        origin: fromWire(origin),
      });
      return { tokens };
    },
    async logout({ accessToken, origin }) {
      await logout(deps, accessToken, fromWire(origin));
      return {};
    },
    async verifyAccessToken({ accessToken, requireFirstPartyUser }) {
      const claims = await verifyAccessToken(deps, accessToken, { requireFirstPartyUser });
      return { ...claims, exp: BigInt(claims.exp) };
    },
  };
}

function fromWire(origin: WireOrigin | undefined): RequestOrigin {
  return { ip: origin?.ip ?? '', userAgent: origin?.userAgent ?? '' };
}
