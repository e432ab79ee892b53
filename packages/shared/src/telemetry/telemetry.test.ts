import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, createContextKey, propagation, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { startTelemetry, type Telemetry } from './index.js';

/** What the OpenTelemetry API does with the globals as they stand. */
function globalsInUse() {
  const key = createContextKey('probe');
  const span = trace.getTracer('probe').startSpan('probe');
  const recording = span.isRecording();
  span.end();
  return {
    recording,
    propagatedFields: propagation.fields(),
    contextKept: context.with(context.active().setValue(key, 1), () => context.active().getValue(key)) === 1,
  };
}

const OFF = { recording: false, propagatedFields: [], contextKept: false };

/** An OTLP/HTTP receiver that keeps what it was sent. */
async function startCollector() {
  const received: { path: string; body: string }[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('startTelemetry (docs/contract.md OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let telemetry: Telemetry | undefined;
  afterEach(async () => {
    await telemetry?.shutdown();
    telemetry = undefined;
  });

  it('registers nothing without an endpoint: tracing stays off', async () => {
    telemetry = startTelemetry('probe', undefined);
    expect(globalsInUse()).toEqual(OFF);
  });

  it('exports spans to <endpoint>/v1/traces, with the service name, and unregisters on shutdown', async () => {
    const collector = await startCollector();
    try {
      // Obtained before tracing starts, as a server built first would.
      const earlyTracer = trace.getTracer('early');
      telemetry = startTelemetry('probe-service', collector.endpoint);
      const early = earlyTracer.startSpan('early');
      expect(early.isRecording()).toBe(true);
      early.end();
      expect(globalsInUse()).toEqual({
        recording: true,
        propagatedFields: expect.arrayContaining(['traceparent']),
        contextKept: true,
      });
      await telemetry.shutdown();
      telemetry = undefined;
      expect(collector.received.map(({ path }) => path)).toEqual(['/v1/traces']);
      const body = collector.received[0]!.body;
      const payload = JSON.parse(body) as {
        resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] } }[];
      };
      expect(payload.resourceSpans[0]!.resource.attributes).toContainEqual({
        key: 'service.name',
        value: { stringValue: 'probe-service' },
      });
      expect(body).toContain('"name":"probe"');
      expect(body).toContain('"name":"early"');
      expect(globalsInUse()).toEqual(OFF);
    } finally {
      await collector.close();
    }
  });
});
