import { Writable } from 'node:stream';
import { createLogger } from '@authz/shared/logger';
import { SESSION_COOKIE } from '@authz/shared/protocol';
import { describe, expect, it } from 'vitest';
import {
  completeAuthorization,
  newAppClient,
  newUser,
  PASSWORD,
  redeemCode,
  refresh,
  useCodeFlow,
  verifyEmail,
} from '../support/code-flow.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { call } from '../support/clients.js';
import { basicAuth, machineClient, newClient } from '../support/tokens.js';

// docs/security.md "Logs" (docs/conventions.md #10, RFC 9700 4.9.3): every service and the gateway
// log at the most verbose level through whole flows, failures included, and no password,
// secret, code or token appears in a single line.
const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString('utf8'));
    done();
  },
});
const flow = useCodeFlow(
  {},
  {},
  { logger: createLogger({ service: 'test', level: 'trace', destination: sink }) },
);

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields).toString(),
});

describe('logs', () => {
  it('carry no password, secret, code or token, through successes and failures', async () => {
    const { suite } = flow;
    const user = await newUser(flow);
    const mail = await flow.smtp.waitFor((message) => message.envelopeTo.includes(user.email));
    const verificationToken = new URL(mail.links.find((link) => link.includes('token='))!).searchParams.get(
      'token',
    )!;
    await verifyEmail(flow, user.email);
    const login = await call<{ access_token: string; refresh_token: string }>(suite, 'POST', '/auth/login', {
      body: { email: user.email, password: PASSWORD },
    });
    await call(suite, 'POST', '/auth/login', { body: { email: user.email, password: 'wrong-Password-99' } });

    const client = await newAppClient(flow);
    const machine = await newClient(suite, flow.developer, machineClient);
    const apiKey = await call<{ key: string }>(suite, 'POST', `/api/clients/${machine.id}/api-keys`, {
      token: flow.developer,
      body: { name: 'ci' },
    });
    const browser = new FormBrowser();
    const authorized = await completeAuthorization(flow, browser, user, { client });
    const tokens = await redeemCode(flow, client, authorized.code!, authorized.verifier);
    // Reuse of the code (revokes what it issued), a rotation, and failed client authentications.
    await redeemCode(flow, client, authorized.code!, authorized.verifier);
    const refreshed = await refresh(flow, client, tokens.body.refresh_token as string);
    await fetch(
      `${suite.baseUrl}/oauth/token`,
      form({ grant_type: 'client_credentials' }, basicAuth(machine.clientId, 'not-the-secret')),
    );
    await fetch(
      `${suite.baseUrl}/oauth/token`,
      form({ grant_type: 'client_credentials' }, basicAuth(machine.clientId, apiKey.body.key)),
    );
    await fetch(
      `${suite.baseUrl}/oauth/introspect`,
      form({ token: login.body.access_token }, basicAuth(client.clientId, client.clientSecret!)),
    );
    await fetch(
      `${suite.baseUrl}/oauth/revoke`,
      form(
        { token: refreshed.body.refresh_token as string },
        basicAuth(client.clientId, client.clientSecret!),
      ),
    );
    await fetch(`${suite.baseUrl}/auth/verify?token=${verificationToken}`);

    const secrets: Record<string, string> = {
      password: PASSWORD,
      'verification token': verificationToken,
      'access token': login.body.access_token,
      'refresh token': login.body.refresh_token,
      'client secret': client.clientSecret!,
      'machine secret': machine.clientSecret!,
      'API key': apiKey.body.key,
      'session cookie': browser.jar.get(SESSION_COOKIE)!,
      'authorization code': authorized.code!,
      'PKCE verifier': authorized.verifier,
      'code-flow refresh token': tokens.body.refresh_token as string,
      'ID token': tokens.body.id_token as string,
      'rotated refresh token': refreshed.body.refresh_token as string,
    };
    expect(lines.length).toBeGreaterThan(50);
    const logged = lines.join('');
    for (const [what, value] of Object.entries(secrets))
      expect(logged.includes(value), `${what} in the logs`).toBe(false);
  }, 60_000);
});
