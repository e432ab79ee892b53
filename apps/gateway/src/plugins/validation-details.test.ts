import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandlerPlugin } from './error-handler.js';

// interface.md 7: one details entry per rejected field, all fields at once, the first message.
let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify({ ajv: { customOptions: { allErrors: true, removeAdditional: false, coerceTypes: false } } });
  await app.register(errorHandlerPlugin, { resourceMetadataUrl: 'https://issuer.example/.well-known/x' });
  app.post(
    '/things',
    {
      schema: {
        body: {
          type: 'object',
          required: ['name', 'owner'],
          properties: {
            name: { type: 'string', minLength: 3, pattern: '^[a-z]+$' },
            tags: { type: 'array', items: { type: 'string' } },
            owner: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
          },
        },
      },
    },
    async () => ({ ok: true }),
  );
  await app.ready();
});
afterAll(() => app.close());

describe('validation details', () => {
  it('names every rejected field once: missing ones by their own name, nested ones dotted', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/things',
      payload: { name: 'A', tags: ['ok', 7, 8], owner: {} },
    });
    expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({
      status: 400,
      body: {
        error: 'Validation error',
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        details: [
          { path: 'name', message: 'must NOT have fewer than 3 characters' },
          { path: 'tags.1', message: 'must be string' },
          { path: 'tags.2', message: 'must be string' },
          { path: 'owner.id', message: "must have required property 'id'" },
        ],
      },
    });
  });

  it('reports every missing property, not only the first', async () => {
    const response = await app.inject({ method: 'POST', url: '/things', payload: {} });
    expect(response.json()).toEqual({
      error: 'Validation error',
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      details: [
        { path: 'name', message: "must have required property 'name'" },
        { path: 'owner', message: "must have required property 'owner'" },
      ],
    });
  });
});
