import { SmtpSink } from '@authz/shared/smtp-sink';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postJson } from '../support/http.js';
import { startSuite, type Suite } from '../support/suite.js';
import { TcpProxy } from '../support/tcp-proxy.js';

// docs/decisions.md #29: mail is never lost; the worker retries with backoff until SMTP is back.
// The SMTP server is reached through a proxy that can cut it off: the port stays bound while
// the server is "down", so nothing else can take it meanwhile.
const environment = useTestEnvironment();
let smtp: SmtpSink;
let proxy: TcpProxy;
let suite: Suite;

beforeAll(async () => {
  smtp = await SmtpSink.start({ closeTimeoutMs: 100 });
  proxy = await TcpProxy.start('127.0.0.1', smtp.port);
  suite = await startSuite({
    databaseUrl: environment.databaseUrl,
    redisUrl: environment.redisUrl,
    redisKeyPrefix: environment.redisPrefix,
    smtpUrl: `smtp://127.0.0.1:${proxy.port}`,
  });
});

afterAll(async () => {
  await suite?.close();
  await proxy?.close();
  await smtp?.stop();
});

it('delivers a verification mail queued while the SMTP server was down once it is back', async () => {
  proxy.cut();
  const email = `outage${Date.now()}@example.com`;
  const registered = await postJson(`${suite.baseUrl}/auth/register`, {
    email,
    password: 'amber-Falcon-river-31',
  });
  expect(registered.status).toBe(201);
  // Let the first delivery attempts fail against the cut connection.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  expect(smtp.received).toEqual([]);

  proxy.restore();
  const mail = await smtp.waitFor((message) => message.envelopeTo.includes(email), 30_000);
  expect(mail.links.some((link) => link.startsWith(`${suite.baseUrl}/ui/verify-email?token=`))).toBe(true);
});
