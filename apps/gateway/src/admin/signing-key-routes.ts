import type { FastifyInstance } from 'fastify';
import { requestOrigin } from '../http/request-origin.js';
import { noStore } from '../http/no-store.js';
import * as schemas from './admin-schemas.js';
import { toSigningKeyView } from './admin-views.js';
import { adminOf } from './require-admin.js';
import type { AdminRouteOptions } from './admin-route-options.js';

/**
 * interface.md 4.15 signing keys: oauth's key ring lists them and rotates them in two phases,
 * as the operator command does (docs/tokens.md #7, docs/admin-api.md #10).
 */
export async function adminSigningKeyRoutes(app: FastifyInstance, { upstreams, route }: AdminRouteOptions) {
  app.get(
    '/admin/signing-keys',
    { ...route, schema: { response: { 200: schemas.signingKeyList } } },
    async (_request, reply) => {
      const { keys } = await upstreams.signingKeys.listSigningKeys({});
      const now = Date.now();
      return noStore(reply).send({ keys: keys.map((key) => toSigningKeyView(key, now)) });
    },
  );

  app.post(
    '/admin/signing-keys/rotate',
    { ...route, schema: { response: { 200: schemas.rotation } } },
    async (request, reply) => {
      const { keys, activatesAt } = await upstreams.signingKeys.rotateSigningKeys({});
      const now = Date.now();
      await upstreams.admin.recordAdminEvent({
        adminUserId: adminOf(request),
        type: 'admin_signing_keys_rotated',
        origin: requestOrigin(request),
        details: {
          kids: keys.map((key) => key.kid).join(' '),
          activatesAt: String(activatesAt),
        },
      });
      return noStore(reply).send({
        keys: keys.map((key) => toSigningKeyView(key, now)),
        activatesAt: Number(activatesAt),
      });
    },
  );
}
