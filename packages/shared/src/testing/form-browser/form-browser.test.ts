import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormBrowser } from './form-browser.js';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  cookie: string | undefined;
  contentType: string | undefined;
  body: string;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer(async (request, response) => {
    seen.push({
      method: request.method,
      url: request.url,
      cookie: request.headers.cookie,
      contentType: request.headers['content-type'],
      body: await bodyOf(request),
    });
    if (request.url === '/start') {
      response.setHeader('set-cookie', ['session=s1; Path=/; HttpOnly', 'step=1']);
      response.writeHead(303, { location: '/next?from=start' }).end();
    } else if (request.url === '/forget') {
      response.setHeader('set-cookie', 'step=; Max-Age=0');
      response.writeHead(200, { 'content-type': 'text/plain' }).end('forgotten');
    } else {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('FormBrowser', () => {
  it('does not follow a redirect: it answers it, Location resolved, and keeps its cookies', async () => {
    const browser = new FormBrowser();
    const answer = await browser.get(`${baseUrl}/start`);
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${baseUrl}/next?from=start`);
    expect(answer.setCookies).toEqual(['session=s1; Path=/; HttpOnly', 'step=1']);
    expect(answer.text).toBe('');
    expect(browser.jar.header()).toBe('session=s1; step=1');
  });

  it('sends its cookies back, posts fields as a form does, and forgets a cookie the server deletes', async () => {
    const browser = new FormBrowser();
    await browser.get(`${baseUrl}/start`);
    seen.length = 0;
    const posted = await browser.post(`${baseUrl}/submit`, [
      ['email', 'a+b@example.com'],
      ['decision', 'allow & go'],
    ]);
    expect(posted).toMatchObject({ status: 200, location: undefined, text: 'ok' });
    const forgotten = await browser.get(`${baseUrl}/forget`, { 'x-extra': '1' });
    expect(forgotten.text).toBe('forgotten');
    await browser.get(`${baseUrl}/after`);
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/submit',
        cookie: 'session=s1; step=1',
        contentType: 'application/x-www-form-urlencoded',
        body: 'email=a%2Bb%40example.com&decision=allow+%26+go',
      },
      { method: 'GET', url: '/forget', cookie: 'session=s1; step=1', contentType: undefined, body: '' },
      { method: 'GET', url: '/after', cookie: 'session=s1', contentType: undefined, body: '' },
    ]);
  });
});

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
