import type { OperationDocs } from '../types.js';

export const systemOperations: OperationDocs = {
  'GET /': {
    operationId: 'greeting',
    summary: 'Greeting',
    tag: 'System',
    responses: { 200: { description: 'A fixed greeting.' } },
  },
  'GET /health': {
    operationId: 'health',
    summary: 'Health',
    description:
      'Pings Redis and asks every data-owning service about its database; each has one second to answer. ' +
      'Never rate-limited.',
    tag: 'System',
    responses: {
      200: { description: 'Everything is connected.' },
      503: { description: 'Something is disconnected: same body, `status: "unhealthy"`.' },
    },
  },
  'GET /metrics': {
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    description: 'The text exposition format. Restrict it at the network level; never rate-limited.',
    tag: 'System',
    responses: { 200: { description: 'The metrics.', content: { 'text/plain': { type: 'string' } } } },
  },
  'GET /openapi.json': {
    operationId: 'openApiDocument',
    summary: 'This OpenAPI document',
    description:
      'Generated from the route schemas; the same document is kept in the repository as docs/openapi.json. ' +
      'Public and cacheable (`Cache-Control: public, max-age=3600`); CORS for any origin.',
    tag: 'System',
    responses: {
      200: { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { type: 'object' } } },
    },
  },
};
