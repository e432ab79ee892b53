import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { Upstreams } from '../plugins/upstreams.js';
import { checkHealth } from './check-health.js';

export interface SystemRoutesOptions {
  redis: Redis;
  upstreams: Upstreams;
  metrics: Registry;
}

export const GREETING = 'Welcome to the OAuth 2.1 / OpenID Connect authorization server';

const connectionState = { type: 'string', enum: ['connected', 'disconnected'] } as const;
const healthBody = {
  type: 'object',
  required: ['status', 'timestamp', 'services'],
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: ['ok', 'unhealthy'] },
    timestamp: { type: 'string', description: 'When checked, ISO 8601.' },
    services: {
      type: 'object',
      required: ['database', 'cache'],
      additionalProperties: false,
      properties: {
        database: { ...connectionState, description: "Every data-owning service's database." },
        cache: { ...connectionState, description: 'Redis.' },
      },
    },
  },
} as const;

/** interface.md 4.1: greeting, health and metrics; no authentication. */
export async function systemRoutes(app: FastifyInstance, { redis, upstreams, metrics }: SystemRoutesOptions) {
  app.get(
    '/',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['message'],
            additionalProperties: false,
            properties: { message: { type: 'string' } },
          },
        },
      },
    },
    async () => ({ message: GREETING }),
  );

  app.get(
    '/health',
    { config: { rateLimit: false }, schema: { response: { 200: healthBody, 503: healthBody } } },
    async (_request, reply) => {
      const report = await checkHealth(redis, upstreams);
      return reply.code(report.status === 'ok' ? 200 : 503).send(report);
    },
  );

  // Restrict at the network level (interface.md 4.1); never rate-limited so scrapes always work.
  app.get(
    '/metrics',
    { config: { rateLimit: false }, schema: { response: { 200: { type: 'string' } } } },
    async (_request, reply) => reply.type(metrics.contentType).send(await metrics.metrics()),
  );
}
