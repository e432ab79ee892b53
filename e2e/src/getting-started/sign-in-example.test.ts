import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../repository/workspace-sources.js';
import { launchChromium } from '../support/chromium.js';
import { call } from '../support/clients.js';
import { useSuite } from '../support/use-suite.js';

// docs/getting-started.md, followed step by step: register, verify with the token from the mail,
// sign in, create a client, then run examples/sign-in.mjs unchanged and sign in through it in
// Chromium. The walkthrough cannot rot without this test failing.
const context = useSuite({ smtp: true });
const email = `newcomer-${Date.now()}@example.com`;
const password = 'copper-Lantern-harbor-61';

let browser: Browser;
let example: ChildProcess | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  example?.kill();
  await browser?.close();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Everything the example prints, and a way to wait for a line of it. */
function run(env: Record<string, string>) {
  const child = spawn(process.execPath, [join(REPOSITORY_ROOT, 'examples', 'sign-in.mjs')], {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, ...env },
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const waitFor = async (pattern: RegExp): Promise<RegExpMatchArray> => {
    for (let tries = 0; tries < 300; tries++) {
      const match = output.match(pattern);
      if (match) return match;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the example never printed ${pattern}; it printed:\n${output}`);
  };
  return { child, exited, waitFor, output: () => output };
}

describe('getting started: from a new account to a signed-in relying party', () => {
  it('registers, verifies, creates a client and signs in through examples/sign-in.mjs', async () => {
    const { suite } = context;
    const registered = await call<{ id: string }>(suite, 'POST', '/auth/register', {
      body: { email, password },
    });
    expect(registered.status).toBe(201);

    const mail = await context.smtp.waitFor((message) => message.envelopeTo.includes(email));
    const token = mail.links.map((link) => /[?&]token=([0-9a-f]{64})$/.exec(link)?.[1]).find(Boolean);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const verified = await call(suite, 'POST', '/auth/verify', { body: { token } });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ message: 'Email verified', email });

    const login = await call<{ access_token: string }>(suite, 'POST', '/auth/login', {
      body: { email, password },
    });
    expect(login.status).toBe(200);
    const port = await freePort();
    const created = await call<{ clientId: string; clientSecret: string }>(suite, 'POST', '/api/clients/', {
      token: login.body.access_token,
      body: {
        name: 'My first app',
        redirectUris: [`http://127.0.0.1:${port}/callback`],
        scopes: ['openid', 'email'],
        tokenEndpointAuthMethod: 'client_secret_basic',
      },
    });
    expect(created.status).toBe(201);

    const running = run({
      ISSUER: suite.baseUrl,
      CLIENT_ID: created.body.clientId,
      CLIENT_SECRET: created.body.clientSecret,
      PORT: String(port),
    });
    example = running.child;
    const [, authorizationUrl] = await running.waitFor(
      /Open this address in a browser and sign in:\n\n {2}(\S+)\n/,
    );
    expect(authorizationUrl!.startsWith(`${suite.baseUrl}/oauth/authorize?`)).toBe(true);

    const page = await (await browser.newContext()).newPage();
    await page.goto(authorizationUrl!);
    await page.fill('input[type=email][name=email]', email);
    await page.fill('input[type=password][name=password]', password);
    await page.click('form [type=submit]');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`http://127.0.0.1:${port}/callback?**`);
    expect(await page.textContent('body'), running.output()).toBe(
      `Signed in as ${email}. You can close this tab.\n`,
    );

    const [, claimsJson] = await running.waitFor(/Signed in\. ID token claims:\n(\{[\s\S]*\n\})\n/);
    expect(JSON.parse(claimsJson!)).toMatchObject({
      iss: suite.baseUrl,
      aud: created.body.clientId,
      sub: registered.body.id,
      email,
      email_verified: true,
    });
    expect(await running.exited).toBe(0);
  });
});
