import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayApp } from '../app.js';
import { canonicalJson } from './canonical-json.js';
import { DOCUMENT_FILE } from './document-file.js';
import { buildOfflineGateway } from './offline-gateway.js';
import { operations } from './operations/index.js';

// docs/openapi.md: the document is made from the routes, served at GET /openapi.json and kept
// in docs/openapi.json; these tests hold the three together.

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  responses: Record<string, { description: string }>;
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** Every route fastify registered, as `METHOD /path` (OpenAPI spelling), with its schema. */
const registered: { key: string; method: string; url: string; schema: unknown }[] = [];
let gateway: GatewayApp;
let response: LightMyRequestResponse;
let document: Document;
/** The route schemas as they were before the document was first made. */
let schemasBefore: string;

const spell = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const routeSchemas = () => JSON.stringify(registered.map(({ key, schema }) => [key, schema]));

beforeAll(async () => {
  gateway = await buildOfflineGateway({
    onRoute: (route) => {
      for (const method of [route.method].flat()) {
        registered.push({
          key: `${method} ${spell(route.url)}`,
          method,
          url: route.url,
          schema: route.schema,
        });
      }
    },
  });
  schemasBefore = routeSchemas();
  response = await gateway.app.inject({ method: 'GET', url: '/openapi.json' });
  document = response.json<Document>();
});

afterAll(async () => {
  await gateway?.close();
});

/** The routes left out on purpose: CORS preflights, HEAD, and the HTML pages under /ui/. */
const leftOut = ({ method, url }: { method: string; url: string }) =>
  method === 'OPTIONS' || method === 'HEAD' || url.startsWith('/ui/');

function documentedOperations(): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(
      ([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as [string, Operation],
    ),
  );
}

describe('GET /openapi.json', () => {
  it('answers 200 with an OpenAPI 3.1 JSON document, public and cacheable', () => {
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
  });

  it('validates against the OpenAPI 3.1 schema, and every $ref resolves', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as Record<string, unknown>);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('documents every JSON and form route fastify registered, and nothing else', () => {
    const expected = registered.filter((route) => !leftOut(route)).map((route) => route.key);
    const documented = documentedOperations().map(([key]) => key);
    expect(documented.sort()).toEqual([...new Set(expected)].sort());
    // What is left out is exactly the preflights, HEAD and the hosted pages.
    expect(
      registered.filter(leftOut).every(({ method, url }) => method !== 'GET' || url.startsWith('/ui/')),
    ).toBe(true);
  });

  it('has an entry in operations/ for every documented route, and none for a route that is gone', () => {
    const documented = documentedOperations().map(([key]) => key);
    expect(Object.keys(operations).sort()).toEqual(documented.sort());
  });

  it('gives every operation an id, a summary, a tag and a description for each response', () => {
    const ids = new Set<string>();
    for (const [key, operation] of documentedOperations()) {
      expect(operation.operationId, key).toBeTruthy();
      expect(ids.has(operation.operationId!), `${key}: operationId used twice`).toBe(false);
      ids.add(operation.operationId!);
      expect(operation.summary, key).toBeTruthy();
      expect(operation.tags, key).toHaveLength(1);
      const statuses = Object.keys(operation.responses);
      expect(
        statuses.some((status) => /^[23]/.test(status)),
        `${key}: no success response`,
      ).toBe(true);
      for (const [status, { description }] of Object.entries(operation.responses)) {
        expect(description, `${key} ${status}`).not.toMatch(/^(Default Response)?$/);
      }
    }
  });

  it('documents the routes without touching their schemas (validation and serialisation stay as they were)', () => {
    expect(routeSchemas()).toBe(schemasBefore);
  });

  it('is docs/openapi.json byte for byte', () => {
    const checkedIn = readFileSync(DOCUMENT_FILE, 'utf8');
    const outOfDate = 'docs/openapi.json is out of date: run `pnpm openapi` and commit the result';
    expect(response.body, outOfDate).toBe(canonicalJson(document));
    expect(checkedIn, outOfDate).toBe(response.body);
  });
});
