import type { AdministerClientRequest, ListAllClientsRequest } from '@authz/proto/clients/v1/client_admin';
import { NotFoundError, ValidationError } from '@authz/shared/errors';
import { decodeCursor, pageLimit, toPage } from '@authz/shared/pagination';
import { applySettings, configOf } from '../clients/client-config.js';
import { isUuid } from '../clients/uuid.js';
import { isClientEnvironment, ENVIRONMENTS, setClientEnvironment } from '../environments/set-environment.js';
import type { Client } from '../generated/prisma/client.js';
import type { Registry } from '../registry.js';

type Deps = Pick<Registry, 'clients' | 'invalidations'>;

/** GET /admin/clients (interface.md 4.15): every developer's clients, keyset pages (docs/admin-api.md #6). */
export async function listAllClients(
  deps: Pick<Registry, 'clients'>,
  request: ListAllClientsRequest,
): Promise<{ clients: Client[]; nextCursor: string | undefined }> {
  const limit = pageLimit(request.limit);
  const after = decodeCursor(request.cursor);
  const developerId = request.developerId;
  if (developerId !== undefined && !isUuid(developerId)) {
    throw new ValidationError([{ path: 'developerId', message: 'must be a developer id' }]);
  }
  const rows = await deps.clients.listAll({
    ...(developerId === undefined ? {} : { developerId: developerId.toLowerCase() }),
    ...(after ? { after } : {}),
    limit: limit + 1,
  });
  const page = toPage(rows, limit, (client) => ({ at: client.createdAt, id: client.id }));
  return { clients: page.rows, nextCursor: page.nextCursor };
}

/**
 * PATCH /admin/clients/{id} (docs/admin-api.md #11): `environment` moves through the very
 * function of the operator command (docs/decisions.md #14: leaving development revokes the API
 * keys); `enabled` as the developer API's PATCH applies it, with the same invalidation
 * (docs/decisions.md #28). The environment is checked before anything changes.
 */
export async function administerClient(
  deps: Deps,
  request: AdministerClientRequest,
): Promise<{ client: Client; revokedApiKeys: number }> {
  if (!isUuid(request.id)) throw new ValidationError([{ path: 'id', message: 'must be a client id' }]);
  const { environment, enabled } = request;
  if (environment !== undefined && !isClientEnvironment(environment)) {
    throw new ValidationError([
      { path: 'environment', message: `must be one of ${ENVIRONMENTS.join(', ')}` },
    ]);
  }
  const current = await deps.clients.findAny(request.id.toLowerCase());
  if (!current) throw new NotFoundError({ detail: 'no such client' });
  let revokedApiKeys = 0;
  if (environment !== undefined) {
    revokedApiKeys = (await setClientEnvironment(deps, current.id, environment)).revokedKeys;
  }
  if (enabled !== undefined && enabled !== current.enabled) {
    const config = applySettings(configOf(current), { enabled } as Parameters<typeof applySettings>[1]);
    await deps.clients.update(current.id, { config });
    await deps.invalidations.publish(current.clientId, enabled ? 'updated' : 'disabled');
  }
  const client = await deps.clients.findAny(current.id);
  if (!client) throw new NotFoundError({ detail: 'deleted concurrently' });
  return { client, revokedApiKeys };
}
