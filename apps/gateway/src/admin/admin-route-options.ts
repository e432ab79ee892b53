import type { RouteShorthandOptions } from 'fastify';
import type { Upstreams } from '../plugins/upstreams.js';

/** What every admin route shares: the admin check and the Bearer challenge. */
export interface AdminRouteOptions {
  upstreams: Upstreams;
  route: Pick<RouteShorthandOptions, 'preValidation' | 'config'>;
}
