import type { IncomingMessage } from 'node:http';
import { OutboundFetchError } from './outbound-fetch-error.js';

/**
 * The body, refused as soon as it is known to exceed maxBytes: up front from Content-Length,
 * otherwise while streaming. Leaving the loop early destroys the response and its socket.
 */
export async function readCappedBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (Number(response.headers['content-length']) > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function tooLarge(maxBytes: number): OutboundFetchError {
  return new OutboundFetchError('too_large', `response body exceeds ${maxBytes} bytes`);
}
