import type { RequestListener, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fetchPublicDocument,
  OutboundFetchError,
  type OutboundFailureReason,
  type OutboundPolicy,
} from './index.js';
import { startTestDocumentServer, type TestDocumentServer } from '../testing/outbound-document-server.js';

const MAX_BYTES = 2048;
const policy: OutboundPolicy = { maxBytes: MAX_BYTES, timeoutMs: 5_000, allowInsecureLoopback: true };
const DOCUMENT = JSON.stringify({ client_id: 'https://client.example/cimd', client_name: 'Example' });

const json = (response: ServerResponse, contentType: string, body: string) => {
  response.writeHead(200, { 'content-type': contentType, 'cache-control': 'max-age=120' });
  response.end(body);
};

let endlessResponseClosed: Promise<void> = Promise.resolve();

const routes: Record<string, RequestListener> = {
  '/document': (_request, response) => json(response, 'application/json; charset=utf-8', DOCUMENT),
  '/jwks': (_request, response) => json(response, 'application/jwk-set+json', '{"keys":[]}'),
  '/exactly-max': (_request, response) =>
    json(response, 'application/json', `"${'a'.repeat(MAX_BYTES - 2)}"`),
  '/redirect': (_request, response) => response.writeHead(302, { location: '/document' }).end(),
  '/missing': (_request, response) =>
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"secret":"body"}'),
  '/html': (_request, response) => json(response, 'text/html', '<html></html>'),
  '/json-seq': (_request, response) => json(response, 'application/json-seq', '{}'),
  '/untyped': (_request, response) => response.writeHead(200).end('{}'),
  // Declares more than maxBytes, then stalls: only the up-front check can refuse it in time.
  '/declared-too-large': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': MAX_BYTES + 1 });
    response.write('{');
  },
  // Streams past maxBytes and never ends: refused only by counting, and the server sees the close.
  '/endless': (_request, response) => {
    endlessResponseClosed = new Promise((resolve) => response.on('close', resolve));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write(' '.repeat(MAX_BYTES + 1));
  },
  '/stalls-mid-body': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{');
  },
  '/never-answers': () => {},
};

async function failureReason(promise: Promise<unknown>): Promise<OutboundFailureReason> {
  const error = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(OutboundFetchError);
  return (error as OutboundFetchError).reason;
}

describe('fetchPublicDocument', () => {
  let server: TestDocumentServer;
  beforeAll(async () => {
    server = await startTestDocumentServer((request, response) => {
      const route = routes[request.url ?? ''];
      if (route) route(request, response);
      else response.writeHead(500).end();
    });
  });
  afterAll(() => server.close());

  it('returns status, headers and body of a JSON document, asking for JSON', async () => {
    const document = await fetchPublicDocument(`${server.origin}/document`, policy);
    expect(document.status).toBe(200);
    expect(document.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(document.headers['cache-control']).toBe('max-age=120');
    expect(document.body.toString('utf8')).toBe(DOCUMENT);
    expect(server.acceptHeaders.at(-1)).toBe('application/json');
  });

  it('reaches localhost by name under allowInsecureLoopback', async () => {
    const document = await fetchPublicDocument(`http://localhost:${server.port}/document`, policy);
    expect(document.body.toString('utf8')).toBe(DOCUMENT);
  });

  it('accepts a +json media type such as application/jwk-set+json', async () => {
    const document = await fetchPublicDocument(`${server.origin}/jwks`, policy);
    expect(document.body.toString('utf8')).toBe('{"keys":[]}');
  });

  it('accepts a body of exactly maxBytes', async () => {
    const document = await fetchPublicDocument(`${server.origin}/exactly-max`, policy);
    expect(document.body.length).toBe(MAX_BYTES);
  });

  it('does not follow a redirect, nor request its Location', async () => {
    const before = server.paths.length;
    expect(await failureReason(fetchPublicDocument(`${server.origin}/redirect`, policy))).toBe('redirect');
    expect(server.paths.slice(before)).toEqual(['/redirect']);
  });

  it('refuses any other status than 200, without quoting the body', async () => {
    const failure = fetchPublicDocument(`${server.origin}/missing`, policy);
    await expect(failure).rejects.toMatchObject({ reason: 'status', message: 'unexpected status 404' });
  });

  it.each(['/html', '/json-seq', '/untyped'])('refuses a non-JSON content type (%s)', async (path) => {
    expect(await failureReason(fetchPublicDocument(`${server.origin}${path}`, policy))).toBe('content_type');
  });

  it('refuses a body declared larger than maxBytes', async () => {
    const failure = fetchPublicDocument(`${server.origin}/declared-too-large`, policy);
    expect(await failureReason(failure)).toBe('too_large');
  });

  it('stops reading a streamed body once it passes maxBytes, and closes the connection', async () => {
    expect(await failureReason(fetchPublicDocument(`${server.origin}/endless`, policy))).toBe('too_large');
    await endlessResponseClosed;
  });

  it.each(['/never-answers', '/stalls-mid-body'])('gives up when the deadline passes (%s)', async (path) => {
    const failure = fetchPublicDocument(`${server.origin}${path}`, { ...policy, timeoutMs: 200 });
    expect(await failureReason(failure)).toBe('timeout');
  });

  it('reports a refused connection as a network failure', async () => {
    const closed = await startTestDocumentServer(() => {});
    await closed.close();
    expect(await failureReason(fetchPublicDocument(`${closed.origin}/document`, policy))).toBe('network');
  });
});
